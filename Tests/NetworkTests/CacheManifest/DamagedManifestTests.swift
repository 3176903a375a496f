import CacheManifest
import Container
import Foundation
import GRDB
import TestSupport
import Testing

/// A manifest and a cache crafted as a hostile app would leave them: a row
/// whose columns hold the wrong types, a path outside the cache, a link
/// where a cached file should be, a FIFO, a link where a directory should
/// be. Each is reported with its row or path; the healthy files are still
/// checked and hashed, and nothing blocks on the FIFO.
@Suite("A damaged cache manifest")
struct DamagedManifestTests {
    /// Three healthy files, then the damage.
    private func craft() throws -> (TemporaryDirectory, AppContainer, CacheManifest) {
        let (directory, container) = try makeContainer()
        let manifest = try CacheManifest(container: container)
        try container.createDirectory("Library/Caches/maps")
        for name in ["a.bin", "maps/b.bin", "z.bin", "link.bin", "fifo.bin", "tiles/t.bin"] {
            let path = "Library/Caches/" + name
            let content = Data("content of \(name)".utf8)
            if name.hasPrefix("tiles/") { try container.createDirectory("Library/Caches/tiles") }
            try container.writeAtomically(content, to: path)
            let info = try container.attributes(path)
            try manifest.record(CachedResource(path: path, url: "http://127.0.0.1:9/\(name)", size: Int64(content.count),
                                               sha256: sha256Hex(content), fetchedAt: 1, inode: Int64(info.inode),
                                               modifiedNanoseconds: info.modificationNanoseconds))
        }
        let caches = container.url(forRelativePath: "Library/Caches").path
        let outside = directory.url.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("outside".utf8).write(to: outside.appendingPathComponent("t.bin"))
        // A link in place of a cached file, a FIFO in place of another, a
        // link in place of a directory.
        try FileManager.default.removeItem(atPath: caches + "/link.bin")
        try FileManager.default.createSymbolicLink(atPath: caches + "/link.bin", withDestinationPath: "a.bin")
        try FileManager.default.removeItem(atPath: caches + "/fifo.bin")
        #expect(mkfifo(caches + "/fifo.bin", 0o644) == 0)
        try FileManager.default.removeItem(atPath: caches + "/tiles")
        try FileManager.default.createSymbolicLink(atPath: caches + "/tiles", withDestinationPath: outside.path)
        // Rows written behind the manifest's back: a size that is text, a
        // time that is a blob, a path outside the cache.
        let database = try DatabaseQueue(path: container.url(forRelativePath: CacheManifest.relativePath).path)
        try database.write { db in
            try db.execute(sql: """
                INSERT INTO resource (path, url, size, sha256, fetchedAt, lastUsedAt, pinned, inode, modifiedNanoseconds)
                VALUES ('Library/Caches/bad-size.bin', 'http://127.0.0.1:9/x', 'abc', '', 0, 0, 0, 0, 0),
                       ('Library/Caches/bad-time.bin', 'http://127.0.0.1:9/y', 4, '', 0, 0, 0, 0, x'00ff'),
                       ('Documents/secret', 'http://127.0.0.1:9/s', 1, '', 0, 0, 0, 0, 0)
                """)
        }
        try database.close()
        return (directory, container, manifest)
    }

    private func reasons(_ report: CacheCheckReport) -> [String: CacheProblem.Reason] {
        Dictionary(report.problems.map { ($0.path, $0.reason) }, uniquingKeysWith: { first, _ in first })
    }

    @Test("the check reports each bad row and link and goes on with the others")
    func checkGoesOn() throws {
        let (_, _, manifest) = try craft()
        let report = try manifest.check()
        #expect(report.checked == 9)
        #expect(report.healthy == 3)
        let found = reasons(report)
        #expect(found["Library/Caches/bad-size.bin"] == .malformedRow)
        #expect(found["Library/Caches/bad-time.bin"] == .malformedRow)
        #expect(found["Documents/secret"] == .invalidPath)
        #expect(found["Library/Caches/link.bin"] == .notAFile)
        #expect(found["Library/Caches/fifo.bin"] == .notAFile)
        #expect(found["Library/Caches/tiles/t.bin"] == .unreadable)
        let badSize = report.problems.first { $0.path == "Library/Caches/bad-size.bin" }
        #expect(badSize?.row != nil)
        #expect(badSize?.detail?.contains("size") == true, "\(String(describing: badSize))")
        let badTime = report.problems.first { $0.path == "Library/Caches/bad-time.bin" }
        #expect(badTime?.detail?.contains("modifiedNanoseconds") == true, "\(String(describing: badTime))")
        #expect(report.problems.first { $0.path == "Library/Caches/tiles/t.bin" }?.detail?.contains("Library/Caches/tiles") == true)
    }

    @Test("verify hashes the healthy files, reports the rest, and never blocks on the FIFO")
    func verifyGoesOn() throws {
        let (_, _, manifest) = try craft()
        let start = Date()
        let report = try manifest.verify()
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(report.healthy == 3)
        #expect(report.problems.count == 6)
        #expect(reasons(report)["Library/Caches/fifo.bin"] == .notAFile)
        let (entries, damaged) = try manifest.readableEntries()
        #expect(entries.count == 7)
        #expect(damaged.map(\.path).sorted() == ["Library/Caches/bad-size.bin", "Library/Caches/bad-time.bin"])
    }

    @Test("a FIFO put in place of a file after the check is refused by the hash, not waited on")
    func fifoNeverOpenedForReading() throws {
        let (_, container) = try makeContainer()
        try container.createDirectory("Library/Caches")
        #expect(mkfifo(container.url(forRelativePath: "Library/Caches/late.bin").path, 0o644) == 0)
        let error = #expect(throws: CacheManifestError.self) {
            try ContentDigest.sha256(ofRegularFileAt: "Library/Caches/late.bin", in: container)
        }
        #expect(error?.path == "Library/Caches/late.bin")
        #expect(error?.message.contains("not a regular file") == true)
    }
}
