import CloudProtocol
import CloudService
import CloudTestSupport
import FileSystem
import Foundation
import SystemPackage
import Testing

/// What a killed collection or a killed upload leaves in the chunk store
/// (objects no ledger row names, temporary files) is removed by the next
/// garbage collection; live chunks, uploads in flight and young temporary
/// files are kept.
@Suite struct CloudSweepTests {
    static func chunkRoot(_ cloud: CloudFixture) -> String { cloud.temp.path("service") + "/chunks" }

    @Test func garbageCollectionSweepsOrphansAndStaleTemporariesAndKeepsLiveChunks() async throws {
        let cloud = try await CloudFixture("cloud-sweep")
        let client = RawCloudClient(baseURL: cloud.url)
        let device = try await RawCloudDevice.create(client, account: "sweeper", udid: "sweep-1")
        let caller = try await cloud.server.service.authenticate(token: device.token)
        let root = Self.chunkRoot(cloud)

        // A live snapshot of one chunk.
        let first = try await device.openSession(client)
        let live = try await device.putChunk(client, session: first, bytes: [UInt8](repeating: 1, count: 4_000))
        _ = try await device.commit(client, session: first, manifest: live, bytes: 4_000)

        // 40 chunks freed by a collection killed after its commit: the
        // ledger forgot them, their objects stay.
        let doomed = try await device.openSession(client)
        for index in 0..<40 {
            _ = try await device.putChunk(client, session: doomed, bytes: [UInt8](repeating: UInt8(index), count: 2_000))
        }
        _ = try await client.send("DELETE", "/v1/sessions/\(doomed)", token: device.token)
        let (killed, keysLeft) = try await cloud.ledger.collectGarbage(accountID: caller.accountID)
        #expect(killed.chunksFreed == 40)
        #expect(keysLeft.count == 40)

        // An upload in flight: reserved, its object written, not yet marked stored.
        let inFlight = try await device.openSession(client)
        let pendingChunk = ChunkID(digest: [UInt8](repeating: 0xee, count: 32))
        let reservation = try await cloud.ledger.reserve(pendingChunk, size: 3_000, session: inFlight, caller: caller)
        let pendingKey = ChunkKey.make(account: caller.accountID, chunk: pendingChunk.hex, generation: reservation.row)
        try await cloud.server.service.chunks.put(pendingKey, [UInt8](repeating: 3, count: 3_000))

        // Temporary files of puts killed mid-write.
        let fan = root + "/\(caller.accountID)/" + live.hex.prefix(2)
        for index in 0..<5 {
            try FileSystemPaths.writeAtomically([UInt8](repeating: 0, count: 1_000), toPath: fan + "/.sb-killed\(index).tmp")
        }

        // With the default grace the temporaries are young: kept; the orphans go.
        let report = try await cloud.server.service.collectGarbage()
        #expect(report.orphansRemoved == 40)
        #expect(report.temporariesRemoved == 0)
        #expect(try FileSystemPaths.entries(atPath: fan).filter(FileDescriptor.isTemporaryName).count == 5)

        // Once they are older than the grace period, they go too.
        var impatient = cloud.server.service
        impatient.temporaryGrace = -1
        let second = try await impatient.collectGarbage()
        #expect(second.temporariesRemoved == 5)
        #expect(second.orphansRemoved == 0)

        let keys = Set(try await cloud.server.service.chunks.keys(withPrefix: ""))
        #expect(keys.count == 2)
        #expect(keys.contains(pendingKey))
        #expect(keys.allSatisfy { key in !keysLeft.contains(key) })
        #expect(try FileSystemPaths.entries(atPath: fan).filter(FileDescriptor.isTemporaryName).isEmpty)
        // The live snapshot still restores.
        let answer = try await client.send("GET", "/v1/chunks/\(live.hex)", token: device.token)
        #expect(answer.status == 200 && answer.body.count == 4_000)
        await cloud.stop()
    }
}
