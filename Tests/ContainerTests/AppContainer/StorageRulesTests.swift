import Container
import Testing

@Suite struct StorageRulesTests {
    @Test func documentsAndLibraryAreBackedUpAndKeptAcrossUpdates() {
        for directory in [ContainerDirectory.documents, .library, .preferences, .applicationSupport] {
            let rules = StorageRules.rules(for: directory)
            #expect(rules.backedUp, "\(directory)")
            #expect(rules.keptAcrossUpdate, "\(directory)")
            #expect(!rules.purgeableWhenDiskLow, "\(directory)")
            #expect(!rules.emptiedByFullRestore, "\(directory)")
            #expect(rules.writable, "\(directory)")
        }
    }

    @Test func cachesAreNotBackedUpAndPurgeable() {
        let rules = StorageRules.rules(for: .caches)
        #expect(!rules.backedUp)
        #expect(rules.purgeableWhenDiskLow)
        #expect(rules.emptiedByFullRestore)
        #expect(rules.keptAcrossUpdate)
        #expect(rules.writable)
    }

    @Test func tmpIsNotBackedUpNorKept() {
        let rules = StorageRules.rules(for: .tmp)
        #expect(!rules.backedUp)
        #expect(!rules.keptAcrossUpdate)
        #expect(rules.purgeableWhenDiskLow)
        #expect(rules.emptiedByFullRestore)
    }

    @Test func bundleAndRootAreReadOnlyAndTheBundleIsNotBackedUp() {
        #expect(!StorageRules.rules(for: .bundle).backedUp)
        #expect(!StorageRules.rules(for: .bundle).writable)
        #expect(!StorageRules.rules(for: .home).writable)
    }

    @Test func longestPrefixGovernsAPath() {
        #expect(StorageRules.directory(forRelativePath: "Library/Caches/img/1.png") == .caches)
        #expect(StorageRules.directory(forRelativePath: "Library/Caches") == .caches)
        #expect(StorageRules.directory(forRelativePath: "Library/CachesX/a") == .library)
        #expect(StorageRules.directory(forRelativePath: "Library/Preferences/a.plist") == .preferences)
        #expect(StorageRules.directory(forRelativePath: "Library/Application Support/db") == .applicationSupport)
        #expect(StorageRules.directory(forRelativePath: "Documents/x/y") == .documents)
        #expect(StorageRules.directory(forRelativePath: "tmp/x") == .tmp)
        #expect(StorageRules.directory(forRelativePath: "Notes.app/Info.plist") == .bundle)
        #expect(StorageRules.directory(forRelativePath: "") == .home)
        #expect(StorageRules.directory(forRelativePath: "stray.txt") == .home)
        #expect(StorageRules.rules(forRelativePath: "Library/Caches/x") == StorageRules.rules(for: .caches))
    }
}
