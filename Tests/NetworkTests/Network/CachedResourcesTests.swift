import CacheManifest
import Container
import ContentServer
import Foundation
import NetworkTransfers
import NetworkConditions
import TestSupport
import Testing

@Suite("Cached resources: the manifest pattern", .serialized)
struct CachedResourcesTests {
    /// A server with `count` files `f0.bin`… of `size` bytes.
    func serve(_ count: Int, size: Int) throws -> (TemporaryDirectory, ContentServerProcess, [Data]) {
        let files = try TemporaryDirectory("srv")
        var contents: [Data] = []
        for index in 0..<count {
            let data = patternData(count: size + index, seed: UInt8(index % 251))
            try files.write(data, to: "f\(index).bin")
            contents.append(data)
        }
        return (files, try ContentServerProcess(root: files), contents)
    }

    @Test("purged files are listed at launch and fetched again; the manifest survives the purge")
    func purgeAndRefetch() async throws {
        let (_, server, contents) = try serve(12, size: 20_000)
        let (_, container) = try makeContainer()
        let downloader = testDownloader()
        let cache = try CachedResources(container: container, downloader: downloader)
        for index in contents.indices { try await cache.fetch(server.url("f\(index).bin"), as: "tiles/f\(index).bin") }
        #expect(try await cache.launchCheck().problems.isEmpty)
        // The purge: Caches emptied while the app was not running.
        for name in try container.contentsOfDirectory("Library/Caches") { try container.removeItem("Library/Caches/\(name)") }
        let check = try await cache.launchCheck()
        #expect(check.problems.count == 12)
        #expect(check.problems.allSatisfy { $0.reason == .missing })
        let report = await cache.refetch(check.problems)
        await downloader.shutdown()
        #expect(report.isComplete)
        #expect(report.fetched.count == 12)
        for index in contents.indices { #expect(try container.read("Library/Caches/tiles/f\(index).bin") == contents[index]) }
        #expect(try await cache.launchCheck().problems.isEmpty)
    }

    @Test("a truncated file and a rewritten one are told apart; a rewrite with the same content is kept")
    func truncatedAndChanged() async throws {
        let (_, server, contents) = try serve(3, size: 30_000)
        let (_, container) = try makeContainer()
        let downloader = testDownloader()
        let cache = try CachedResources(container: container, downloader: downloader)
        for index in contents.indices { try await cache.fetch(server.url("f\(index).bin"), as: "f\(index).bin") }
        try container.writeAtomically(contents[0].prefix(100), to: "Library/Caches/f0.bin")
        try container.writeAtomically(contents[1], to: "Library/Caches/f1.bin")        // same bytes, new inode
        var corrupt = contents[2]
        corrupt[10] ^= 0xFF
        try container.writeAtomically(corrupt, to: "Library/Caches/f2.bin")            // same size, other bytes
        let check = try await cache.launchCheck()
        #expect(check.problems.map(\.reason) == [.truncated, .changed, .changed])
        let report = await cache.refetch(check.problems)
        await downloader.shutdown()
        #expect(report.confirmed == ["Library/Caches/f1.bin"])
        #expect(report.fetched == ["Library/Caches/f0.bin", "Library/Caches/f2.bin"])
        for index in contents.indices { #expect(try container.read("Library/Caches/f\(index).bin") == contents[index]) }
    }

    @Test("offline, the app gets the list of what is missing and why")
    func offlineListsMissing() async throws {
        let (_, server, contents) = try serve(4, size: 1_000)
        let (_, container) = try makeContainer()
        let online = testDownloader()
        let cache = try CachedResources(container: container, downloader: online)
        for index in contents.indices { try await cache.fetch(server.url("f\(index).bin"), as: "f\(index).bin") }
        await online.shutdown()
        try container.removeItem("Library/Caches/f1.bin")
        try container.removeItem("Library/Caches/f3.bin")
        let offline = testDownloader(conditions: { .failure(NetworkUnavailable(.airplaneMode)) })
        let relaunched = try CachedResources(container: container, downloader: offline)
        let report = try await relaunched.restoreMissing()
        await offline.shutdown()
        #expect(report.unavailable == .airplaneMode)
        #expect(report.failures.map(\.path) == ["Library/Caches/f1.bin", "Library/Caches/f3.bin"])
        #expect(report.failures.allSatisfy { $0.error.code == .unavailable(.airplaneMode) })
    }

    @Test("the size limit is hard: least recently used files go when a new one is added")
    func hardLimitEvictsLRU() async throws {
        let (_, server, contents) = try serve(6, size: 100_000)
        let (_, container) = try makeContainer()
        let downloader = testDownloader()
        let limit: Int64 = 350_000
        let cache = try CachedResources(container: container, downloader: downloader, sizeLimit: limit)
        for index in 0..<3 { try await cache.fetch(server.url("f\(index).bin"), as: "f\(index).bin") }
        _ = try await cache.resource(named: "f0.bin")  // f0 used: f1 is now the least recent
        for index in 3..<6 {
            try await cache.fetch(server.url("f\(index).bin"), as: "f\(index).bin")
            #expect(try cache.manifest.evictableBytes() <= limit)
            let onDisk = try container.items(under: "Library/Caches").filter { !$0.info.isDirectory && !$0.path.contains(".partial") }
            #expect(onDisk.reduce(0) { $0 + Int64($1.info.size) } <= limit)
        }
        await downloader.shutdown()
        let kept = try cache.manifest.all().map(\.path)
        #expect(kept == ["Library/Caches/f4.bin", "Library/Caches/f5.bin", "Library/Caches/f3.bin"].sorted())
        #expect(!container.fileExists("Library/Caches/f1.bin"))
        _ = contents
    }

    @Test("a pinned file moves to Application Support with the do-not-back-up flag and survives a purge")
    func pinnedSurvivesPurge() async throws {
        let (_, server, contents) = try serve(2, size: 5_000)
        let (_, container) = try makeContainer()
        let downloader = testDownloader()
        let cache = try CachedResources(container: container, downloader: downloader)
        for index in contents.indices { try await cache.fetch(server.url("f\(index).bin"), as: "maps/f\(index).bin") }
        let pinned = try await cache.pin(named: "maps/f0.bin")
        await downloader.shutdown()
        #expect(pinned.path == "Library/Application Support/Pinned/maps/f0.bin")
        #expect(try container.isExcludedFromBackup(pinned.path))
        #expect(try container.read(pinned.path) == contents[0])
        try container.removeItem("Library/Caches/maps")
        let check = try await cache.launchCheck()
        #expect(check.problems.map(\.path) == ["Library/Caches/maps/f1.bin"])
        #expect(try await cache.resource(named: "maps/f0.bin")?.pinned == true)
    }
}
