import Container
import FileSystem
import Foundation
import SystemPackage
import TestSupport
import Testing

/// The container's one rules-driven walk: the rules table and the
/// do-not-back-up flag decide what a backup takes, the same for a walk and
/// for one path, in app and group containers; a flag that cannot be read
/// is said, never taken as "left out".
@Suite struct ContainerWalkTests {
    let temp: TemporaryDirectory

    init() throws { temp = try TemporaryDirectory() }

    /// Every item the walk met, by path.
    static func walked(_ container: AppContainer) throws -> [String: ContainerEntry] {
        var items: [String: ContainerEntry] = [:]
        try container.walk { item, _ in
            items[item.entry.path] = item
            return .descend
        }
        return items
    }

    @Test(arguments: [ExclusionStorage.automatic, .record])
    func backupTakesBackedUpDirectoriesAndSkipsFlaggedItems(storage: ExclusionStorage) throws {
        let container = try AppContainer.create(at: temp.url.appendingPathComponent("App"), bundleName: "Notes",
                                                options: ContainerOptions(exclusionStorage: storage))
        for path in ["Documents/a.txt", "Library/Preferences/com.example.notes.plist", "Library/Caches/c.bin",
                     "tmp/t", "Library/Application Support/db", "Documents/big.mov"] {
            try container.writeAtomically(Data("x".utf8), to: path)
        }
        try container.createDirectory("Library/Offline")
        try container.writeAtomically(Data("y".utf8), to: "Library/Offline/page.html")
        try container.setExcludedFromBackup(true, at: "Documents/big.mov")
        try container.setExcludedFromBackup(true, at: "Library/Offline")
        // What an interrupted write and the container manager leave behind.
        try Data("old".utf8).write(to: container.url(forRelativePath: "Documents/.sb-abc123.tmp"))
        try Data().write(to: container.url(forRelativePath: ".com.apple.mobile_container_manager.metadata.plist"))

        for path in ["Documents", "Documents/a.txt", "Library", "Library/Preferences/com.example.notes.plist",
                     "Library/Application Support/db"] {
            #expect(try container.backupVerdict(of: path).isIncluded, "\(path)")
        }
        let expected: [String: ContainerBackupExclusion] = [
            "Library/Caches": .notBackedUpByRule, "Library/Caches/c.bin": .notBackedUpByRule, "tmp": .notBackedUpByRule,
            "tmp/t": .notBackedUpByRule, "Notes.app": .notBackedUpByRule, "Documents/big.mov": .flagged,
            "Library/Offline": .flagged, "Library/Offline/page.html": .insideExcludedDirectory,
            "Documents/.sb-abc123.tmp": .bookkeeping, ".com.apple.mobile_container_manager.metadata.plist": .bookkeeping,
        ]
        for (path, reason) in expected {
            #expect(try container.backupVerdict(of: path).exclusion == reason, "\(path)")
        }
        for path in ["Documents/missing", "../outside"] {
            #expect(throws: ContainerError.self, "\(path)") { try container.backupVerdict(of: path) }
        }

        // The walk gives every item the answer the path gives.
        let items = try Self.walked(container)
        #expect(items.count > 15)
        for (path, item) in items {
            let byPath = try container.backupVerdict(of: path)
            #expect(item.isBackedUp == byPath.isIncluded && item.backup.exclusion == byPath.exclusion, "\(path)")
        }
        #expect(items["Library/Caches"]?.isStandardDirectory == true)
        #expect(items["Library/Caches/c.bin"]?.isStandardDirectory == false)
        #expect(items["Library/Caches/c.bin"]?.directory == .caches)
        #expect(items["Library/Offline/page.html"]?.directory == .library)
    }

    /// A record of flags that cannot be read leaves every item whose flag
    /// it would give unjudged: each is `.unreadable`, with the cause, and
    /// the items the rules leave out are still left out by rule.
    @Test func anUnreadableFlagIsSaidNotTakenAsLeftOut() throws {
        let container = try AppContainer.create(at: temp.url.appendingPathComponent("App"), bundleName: "Notes",
                                                options: ContainerOptions(exclusionStorage: .record))
        try container.writeAtomically(Data("x".utf8), to: "Documents/a.txt")
        try container.writeAtomically(Data("x".utf8), to: "Library/Caches/c.bin")
        try container.setExcludedFromBackup(true, at: "Documents/a.txt")
        try Data("not a property list".utf8).write(to: container.root.appendingPathComponent(".com.apple.sandbox.backup-exclusions.plist"))
        let items = try Self.walked(container)
        // Documents itself cannot be judged; what it holds is never asked about.
        guard case .unreadable(let error) = items["Documents"]?.backup else {
            Issue.record("Documents: \(String(describing: items["Documents"]?.backup))")
            return
        }
        #expect(error.code == .corrupt)
        #expect(items["Documents/a.txt"]?.backup.exclusion == .insideExcludedDirectory)
        #expect(items["Library/Caches/c.bin"]?.backup.exclusion == .notBackedUpByRule)
        #expect(items[".com.apple.sandbox.backup-exclusions.plist"]?.isLibraryBookkeeping == true)
    }

    /// A group container: Caches and tmp are left out, its top is the
    /// apps' own (no bundle, Documents is theirs), the flag is honoured.
    @Test func aGroupContainerFollowsTheGroupRows() throws {
        let root = temp.url.appendingPathComponent("Group")
        for path in ["Library/Caches/c", "Library/Preferences/group.plist", "tmp/t", "Shared.app/x", "Documents/d",
                     "db.sqlite", "flagged.bin", ".com.apple.mobile_container_manager.metadata.plist"] {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("g".utf8).write(to: url)
        }
        let flagged = try FileDescriptor.open(atPath: root.appendingPathComponent("flagged.bin").path, .readOnly)
        try flagged.setExtendedAttribute(AppContainer.exclusionAttributeName, [1])
        flagged.closeQuietly()
        let handle = try FileDescriptor.openDirectory(atPath: root.path)
        defer { handle.closeQuietly() }
        var classifier = ContainerEntryClassifier.group()
        var verdicts: [String: ContainerEntry] = [:]
        try handle.walkTree { entry, parent throws(FileSystemError) in
            verdicts[entry.path] = classifier.classify(entry, in: parent)
            return .descend
        }
        for path in ["Library", "Library/Preferences/group.plist", "Shared.app", "Shared.app/x", "Documents/d", "db.sqlite"] {
            #expect(verdicts[path]?.isBackedUp == true, "\(path)")
        }
        #expect(verdicts["Library/Caches/c"]?.backup.exclusion == .notBackedUpByRule)
        #expect(verdicts["tmp/t"]?.backup.exclusion == .notBackedUpByRule)
        #expect(verdicts["flagged.bin"]?.backup.exclusion == .flagged)
        #expect(verdicts[".com.apple.mobile_container_manager.metadata.plist"]?.backup.exclusion == .bookkeeping)
        #expect(verdicts["Shared.app"]?.directory == .home)
        #expect(StorageRules.directories(where: \.purgeableWhenDiskLow, in: .group) == [.caches, .tmp])
        #expect(StorageRules.rules(for: .home, in: .group).writable)
        #expect(!StorageRules.rules(for: .home, in: .app).writable)
    }

    /// A full restore, from the table: what comes back, what is replaced,
    /// what is made again, and where it stages (the choices iOS makes:
    /// Documents and Library but Caches come back into an app; all of a
    /// group but Caches, tmp and the container manager's files).
    @Test func aFullRestoreIsDrivenByTheTable() {
        for path in ["", "Documents", "Documents/a", "Library", "Library/Preferences/p.plist", "Library/Offline/x",
                     "Library/Application Support/db"] {
            #expect(StorageRules.restoreBringsBack(path, in: .app), "\(path)")
        }
        for path in ["Library/Caches", "Library/Caches/c", "tmp", "tmp/t", "Notes.app/Info.plist", "stray.txt",
                     ".com.apple.mobile_container_manager.metadata.plist"] {
            #expect(!StorageRules.restoreBringsBack(path, in: .app), "\(path)")
        }
        for path in ["", "db.sqlite", "Documents/d", "Library/Preferences/g.plist", "Shared.app/x"] {
            #expect(StorageRules.restoreBringsBack(path, in: .group), "\(path)")
        }
        for path in ["Library/Caches/c", "tmp/t", ".com.apple.mobile_container_manager.metadata.plist"] {
            #expect(!StorageRules.restoreBringsBack(path, in: .group), "\(path)")
        }
        let appReplaced = ["Documents", "Library", "tmp", "Notes.app", "stray.txt", ".com.apple.x"]
            .filter { StorageRules.restoreReplaces(topLevel: $0, in: .app) }
        #expect(appReplaced == ["Documents", "Library", "tmp"])
        let groupReplaced = ["Library", "tmp", "db.sqlite", ".com.apple.x"].filter { StorageRules.restoreReplaces(topLevel: $0, in: .group) }
        #expect(groupReplaced == ["Library", "tmp", "db.sqlite"])
        #expect(StorageRules.restoreStagingDirectory(in: .app) == .tmp)
        #expect(StorageRules.restoreStagingDirectory(in: .group) == nil)
        #expect(ContainerDirectory.layout(of: .group).map(\.relativePath) == ["Library", "Library/Preferences", "Library/Caches"])
    }
}
