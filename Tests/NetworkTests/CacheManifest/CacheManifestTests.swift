import CacheManifest
import Container
import Foundation
import TestSupport
import Testing

@Suite("The cache manifest")
struct CacheManifestTests {
    @Test("two processes record into one manifest at once and nothing is lost")
    func twoProcesses() throws {
        let (directory, container) = try makeContainer()
        _ = try CacheManifest(container: container)
        guard let worker = BuiltExecutable.locate("download-worker") else { throw TestFailure("download-worker was not built") }
        let path = directory.url.appendingPathComponent("home").path
        let first = try ChildProcess.start(worker, ["--record", path, "400", "a"])
        let second = try ChildProcess.start(worker, ["--record", path, "400", "b"])
        first.waitUntilExit()
        second.waitUntilExit()
        #expect(first.terminationStatus == 0 && second.terminationStatus == 0)
        #expect(try CacheManifest(container: container).count() == 800)
    }

    @Test("the manifest lives in Application Support: backed up, never purged")
    func placement() throws {
        let (_, container) = try makeContainer()
        _ = try CacheManifest(container: container)
        #expect(container.fileExists(CacheManifest.relativePath))
        #expect(container.backupIncludes(CacheManifest.relativePath))
        #expect(StorageRules.rules(forRelativePath: CacheManifest.relativePath).purgeableWhenDiskLow == false)
    }

    @Test("entries outside Caches and the pinned directory are refused by the check")
    func foreignPathRefused() throws {
        let (_, container) = try makeContainer()
        let manifest = try CacheManifest(container: container)
        try manifest.record(CachedResource(path: "Documents/secret", url: "http://example.invalid/", size: 1, sha256: "", fetchedAt: 0))
        #expect(throws: CacheManifestError.self) { try manifest.check() }
    }

    @Test("a parent component is refused wherever it is; names that only contain dots are not", arguments: [
        ("Library/Caches/../Documents/x", true), ("Library/Caches/a/..", true), ("Library/Caches/a/../../b", true),
        ("Library/Caches/...", false), ("Library/Caches/..x/y", false), ("Library/Caches/x../y", false),
        ("Library/Caches/.a/b", false), ("Library/Caches/a.b/.", false),
    ])
    func parentComponent(path: String, refused: Bool) throws {
        let (_, container) = try makeContainer()
        let manifest = try CacheManifest(container: container)
        try manifest.record(CachedResource(path: path, url: "http://example.invalid/", size: 1, sha256: "", fetchedAt: 0))
        if refused {
            #expect(throws: CacheManifestError.self) { try manifest.check() }
        } else {
            #expect(try manifest.check().problems.map(\.path) == [path])
        }
    }

    @Test("the check groups entries by directory, neighbours and non-ASCII names included")
    func groupsByDirectory() throws {
        let (_, container) = try makeContainer()
        let manifest = try CacheManifest(container: container)
        // Directories whose names are prefixes of each other, sort between
        // each other's entries, or are not ASCII.
        let paths = ["Library/Caches/a/1", "Library/Caches/a/b/2", "Library/Caches/a/b/3", "Library/Caches/a-b/4",
                     "Library/Caches/ab/5", "Library/Caches/é/6", "Library/Caches/e\u{301}/7", "Library/Caches/top",
                     "Library/Caches/日本/8"]
        for path in paths {
            let parent = String(path[..<path.lastIndex(of: "/")!])
            try container.createDirectory(parent)
            try container.writeAtomically(Data(path.utf8), to: path, durability: .none)
            let info = try container.attributes(path)
            try manifest.record(CachedResource(path: path, url: "http://example.invalid/", size: Int64(path.utf8.count), sha256: "",
                                               fetchedAt: 0, inode: Int64(info.inode), modifiedNanoseconds: info.modificationNanoseconds))
        }
        var report = try manifest.check()
        #expect(report.healthy == paths.count && report.problems.isEmpty, "\(report.problems)")
        try container.removeItem("Library/Caches/é/6")
        try container.writeAtomically(Data("longer than before".utf8), to: "Library/Caches/a/b/3", durability: .none)
        report = try manifest.check()
        #expect(Set(report.problems.map(\.path)) == ["Library/Caches/é/6", "Library/Caches/a/b/3"])
        #expect(report.healthy == paths.count - 2)
    }

    @Test("forgetting is idempotent")
    func forgetTwice() throws {
        let (_, container) = try makeContainer()
        let manifest = try CacheManifest(container: container)
        try manifest.forget(path: "Library/Caches/none")
        try manifest.forget(path: "Library/Caches/none")
        #expect(try manifest.count() == 0)
    }
}
