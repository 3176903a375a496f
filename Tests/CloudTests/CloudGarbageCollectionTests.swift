import CloudTestSupport
import CloudBackup
import CloudProtocol
import CloudService
import Device
import Foundation
import Testing

/// The per-app switch and garbage collection.
@Suite struct CloudGarbageCollectionTests {
    @Test func anAppTurnedOffLeavesTheNextSnapshotAndGarbageCollectionFreesItsBytes() async throws {
        let cloud = try await CloudFixture("cloud-toggle")
        defer { Task { await cloud.stop() } }
        let phone = try cloud.device("phone", apps: ["com.example.notes", "com.example.photos"])
        let photos = CloudFixture.bytes(2_000_000, seed: 9)
        try phone.app("com.example.photos").dataContainer().writeAtomically(photos, to: "Documents/album.bin")
        try phone.app("com.example.notes").dataContainer().writeAtomically(Data("note".utf8), to: "Documents/note.txt")
        let account = try await cloud.signIn(phone, account: "eve", create: true)
        _ = try await CloudBackup.backUp(device: phone, account: account, now: true)
        let before = try await account.client.account().usedBytes
        #expect(before > 2_000_000)

        let off = try await account.client.setApp("com.example.photos", enabled: false, device: account.deviceID)
        #expect(off == ["com.example.photos"])
        let second = try await CloudBackup.backUp(device: phone, account: account, now: true)
        #expect(second.appsOff == ["com.example.photos"])
        // Not freed yet: the retired snapshot's chunks go at the next collection.
        #expect(try await account.client.account().usedBytes >= before - 100_000)
        let report = try await cloud.server.service.collectGarbage()
        #expect(report.bytesFreed >= 2_000_000)
        #expect(report.snapshotsRetired == 1)
        let after = try await account.client.account().usedBytes
        #expect(after < before - 2_000_000)

        // A new device gets Notes back, not Photos.
        let tablet = try cloud.device("tablet", apps: ["com.example.notes", "com.example.photos"])
        let tabletAccount = try await cloud.signIn(tablet, account: "eve", create: false)
        let restored = try await CloudRestore.restore(device: tablet, account: tabletAccount, sourceDevice: account.deviceID)
        #expect(restored.appsRestored == ["com.example.notes"])
        #expect(!(try tablet.app("com.example.photos").dataContainer().fileExists("Documents/album.bin")))
        #expect(try tablet.app("com.example.notes").dataContainer().read("Documents/note.txt") == Data("note".utf8))
    }

    @Test func garbageCollectionRunsAlongsideUploadsAndNeverTakesWhatASessionHolds() async throws {
        let cloud = try await CloudFixture("cloud-gc-concurrent")
        defer { Task { await cloud.stop() } }
        let phone = try cloud.device("phone")
        let container = try phone.app("com.example.notes").dataContainer()
        var files: [String: Data] = [:]
        for index in 0..<24 {
            let data = CloudFixture.bytes(300_000, seed: UInt64(100 + index))
            files["Documents/f\(index).bin"] = data
            try container.writeAtomically(data, to: "Documents/f\(index).bin")
        }
        let account = try await cloud.signIn(phone, account: "fay", create: true)
        let service = cloud.server.service
        let collector = Task {
            var runs = 0
            while !Task.isCancelled {
                _ = try? await service.collectGarbage()
                runs += 1
                try? await Task.sleep(nanoseconds: 5_000_000)
            }
            return runs
        }
        let report = try await CloudBackup.backUp(device: phone, account: account, now: true, concurrency: 4)
        collector.cancel()
        let runs = await collector.value
        #expect(runs > 3)
        _ = try await service.collectGarbage()
        #expect(report.chunksSent >= 24)

        let tablet = try cloud.device("tablet")
        let tabletAccount = try await cloud.signIn(tablet, account: "fay", create: false)
        _ = try await CloudRestore.restore(device: tablet, account: tabletAccount, sourceDevice: account.deviceID)
        let restored = try tablet.app("com.example.notes").dataContainer()
        for (path, data) in files { #expect(try restored.read(path) == data) }
    }
}
