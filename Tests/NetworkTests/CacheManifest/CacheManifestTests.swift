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

    @Test("forgetting is idempotent")
    func forgetTwice() throws {
        let (_, container) = try makeContainer()
        let manifest = try CacheManifest(container: container)
        try manifest.forget(path: "Library/Caches/none")
        try manifest.forget(path: "Library/Caches/none")
        #expect(try manifest.count() == 0)
    }
}
