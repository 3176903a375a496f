import CloudTestSupport
import CloudBackup
import CloudProtocol
import CloudService
import Device
import Foundation
import Testing

/// A server process killed mid-upload: the previous snapshot stays current
/// and restorable, and the retry sends only what is still missing.
@Suite struct CloudInterruptionTests {
    @Test func aServerKilledMidUploadKeepsThePreviousSnapshotAndTheRetryResumes() async throws {
        let cloud = try await CloudFixture("cloud-kill")
        await cloud.stop()
        let directory = cloud.temp.path("killed-service")
        var server = try ServiceProcess(directory: directory)
        let port = server.port
        defer { server.stop() }

        let phone = try cloud.device("phone")
        let container = try phone.app("com.example.notes").dataContainer()
        let v1 = CloudFixture.bytes(200_000, seed: 1)
        try container.writeAtomically(v1, to: "Documents/v1.bin")
        let account = try await CloudAccount.signIn(device: phone, service: server.url, account: "gus", password: "pw", create: true,
                                                    rounds: CloudFixture.rounds)
        let first = try await CloudBackup.backUp(device: phone, account: account, now: true)
        let firstIDs = Set(try await account.client.snapshot(first.snapshot.snapshotID).chunks.map(\.hex))

        var v2: [String: Data] = [:]
        for index in 0..<40 {
            let data = CloudFixture.bytes(256 * 1024, seed: UInt64(1000 + index))
            v2["Documents/v2-\(index).bin"] = data
            try container.writeAtomically(data, to: "Documents/v2-\(index).bin")
        }
        let ledger = Ledger(database: try SQLiteLedgerDatabase(path: directory + "/ledger.sqlite"))
        let firstStored = try await ledger.totals().chunks
        let upload = Task { try await CloudBackup.backUp(device: phone, account: account, now: true, concurrency: 2) }
        // Kill the server once some, not all, of the new chunks are stored.
        // (Polled gently: each look takes the ledger's write lock.)
        var storedBeforeKill: Int64 = 0
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            storedBeforeKill = try await ledger.totals().chunks
            if storedBeforeKill >= firstStored + 8 { break }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        server.kill()
        let storedIDs = try await Self.storedChunks(ledger)
        let outcome = await upload.result
        #expect(throws: CloudBackupError.self) { try outcome.get() }
        #expect(storedBeforeKill < firstStored + 40)

        // Back on the same storage: the previous snapshot is the current one.
        server = try ServiceProcess(directory: directory, port: port)
        let snapshots = try await account.client.snapshots(device: account.deviceID)
        #expect(snapshots.map(\.snapshotID) == [first.snapshot.snapshotID])
        let tablet = try cloud.device("tablet")
        let tabletAccount = try await CloudAccount.signIn(device: tablet, service: server.url, account: "gus", password: "pw", create: false,
                                                          rounds: CloudFixture.rounds)
        _ = try await CloudRestore.restore(device: tablet, account: tabletAccount, sourceDevice: account.deviceID)
        let restored = try tablet.app("com.example.notes").dataContainer()
        #expect(try restored.read("Documents/v1.bin") == v1)
        #expect(!restored.fileExists("Documents/v2-0.bin"))

        // The retry resumes: of the chunks its snapshot needs, it sends
        // only those the killed upload had not stored (and its manifest).
        let retry = try await CloudBackup.backUp(device: phone, account: account, now: true)
        let needed = Set(try await account.client.snapshot(retry.snapshot.snapshotID).chunks.map(\.hex))
        let notYetStored = needed.subtracting(storedIDs)
        // At least 8 new chunks were stored when the server died; at most 6
        // of them (the index files and the keychain export) change again.
        #expect(needed.intersection(storedIDs.subtracting(firstIDs)).count >= 2)
        #expect(retry.chunksSent <= notYetStored.count)
        _ = try await CloudRestore.restore(device: tablet, account: tabletAccount, sourceDevice: account.deviceID)
        let again = try tablet.app("com.example.notes").dataContainer()
        for (path, data) in v2 { #expect(try again.read(path) == data) }
        await ledger.database.close()
    }

    /// The chunk names the ledger has stored.
    static func storedChunks(_ ledger: Ledger) async throws -> Set<String> {
        let rows = try await ledger.database.transaction { tx throws(CloudStorageError) in
            try await tx.execute("SELECT chunk_id FROM chunks WHERE state = 'stored'")
        }
        return Set(rows.compactMap { $0.first?.text })
    }
}
