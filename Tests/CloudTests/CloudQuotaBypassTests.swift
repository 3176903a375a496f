import CloudProtocol
import CloudService
import CloudTestSupport
import FileSystem
import Foundation
import Testing

/// One chunk id sent twice at once with two sizes, or again after a server
/// died between its reservation and its commit, never stores a byte the
/// quota does not count: the second size is refused with a 409.
@Suite struct CloudQuotaBypassTests {
    static let quota: Int64 = 1_000_000

    /// Bytes the chunk store's objects hold (their sizes, not their blocks).
    static func bytesOnDisk(_ cloud: CloudFixture) async throws -> UInt64 {
        var total: UInt64 = 0
        for key in try await cloud.server.service.chunks.keys(withPrefix: "") {
            total += UInt64(try await cloud.server.service.chunks.get(key).count)
        }
        return total
    }

    static func put(_ client: RawCloudClient, _ device: RawCloudDevice, session: Int64, chunk: ChunkID,
                    size: Int) async throws -> RawCloudResponse {
        try await client.send("PUT", "/v1/sessions/\(session)/chunks/\(chunk.hex)", authorization: "Bearer \(device.token)",
                              body: [UInt8](repeating: UInt8(size % 251), count: size), contentType: "application/octet-stream")
    }

    @Test func sizeFlippingConcurrentPutsOfOneIDNeverStoreMoreThanTheQuota() async throws {
        let cloud = try await CloudFixture("cloud-size-flip", quota: Self.quota)
        let client = RawCloudClient(baseURL: cloud.url)
        let device = try await RawCloudDevice.create(client, account: "flipper", udid: "flip-1")
        let session = try await device.openSession(client)
        // 24 ids, each sent at once as 1,600 bytes and as 3 MiB.
        let statuses = try await withThrowingTaskGroup(of: (Int, ServiceErrorBody?).self) { group in
            for index in 0..<24 {
                let chunk = ChunkID(digest: (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) })
                for size in [1_600, 3 << 20] {
                    group.addTask {
                        let answer = try await Self.put(client, device, session: session, chunk: chunk, size: size)
                        return (answer.status, answer.status >= 400 ? try answer.decode(ServiceErrorBody.self) : nil)
                    }
                }
            }
            var all: [(Int, ServiceErrorBody?)] = []
            for try await outcome in group { all.append(outcome) }
            return all
        }
        // Every refusal is typed: another size (409 conflict), the quota (507) or a too large body (413 for none here).
        for (status, body) in statuses where status >= 400 {
            #expect([409, 507].contains(status), "unexpected \(status): \(body?.message ?? "")")
            if status == 409 { #expect(body?.code == "conflict" && body?.message.contains("one chunk id has one encrypted size") == true) }
        }
        let onDisk = try await Self.bytesOnDisk(cloud)
        let totals = try await cloud.ledger.totals()
        print("size-flip: \(statuses.filter { $0.0 < 300 }.count) stored, \(statuses.filter { $0.0 == 409 }.count) refused as another size, "
              + "\(onDisk) bytes on disk, \(totals.storedBytes) charged, quota \(Self.quota)")
        #expect(onDisk <= UInt64(Self.quota))
        #expect(onDisk == UInt64(totals.storedBytes))
        await cloud.stop()
    }

    @Test func aPendingRowLeftByAKilledServerRefusesAnotherSize() async throws {
        let cloud = try await CloudFixture("cloud-pending-flip", quota: Self.quota)
        let client = RawCloudClient(baseURL: cloud.url)
        let device = try await RawCloudDevice.create(client, account: "resumer", udid: "resume-1")
        let session = try await device.openSession(client)
        let chunk = ChunkID(digest: [UInt8](repeating: 9, count: 32))
        // What a server killed between reserve and mark-stored leaves: a
        // pending row charging 1,600 bytes, and no object.
        let caller = try await cloud.server.service.authenticate(token: device.token)
        let reservation = try await cloud.ledger.reserve(chunk, size: 1_600, session: session, caller: caller)
        #expect(!reservation.alreadyStored)

        let big = try await Self.put(client, device, session: session, chunk: chunk, size: 3 << 20)
        #expect(big.status == 409)
        #expect(try big.decode(ServiceErrorBody.self).message.contains("pending with 1600 bytes"))
        #expect(try await Self.bytesOnDisk(cloud) == 0)

        // The retry with the charged size completes the pending row.
        let retry = try await Self.put(client, device, session: session, chunk: chunk, size: 1_600)
        #expect(retry.status == 201)
        #expect(try await Self.bytesOnDisk(cloud) == 1_600)
        #expect(try await cloud.ledger.totals().storedBytes == 1_600)
        await cloud.stop()
    }
}
