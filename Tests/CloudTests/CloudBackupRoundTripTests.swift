import CloudTestSupport
import CloudBackup
import CloudProtocol
import CloudService
import Device
import Foundation
import Keychain
import Testing

/// A device backs up to the embedded service and another device of the
/// account restores from it, under iOS's content and keychain rules.
@Suite struct CloudBackupRoundTripTests {
    /// Notes with data in every kind of place and two keychain items.
    static func populate(_ device: Device, documents: Data) throws {
        let notes = try device.app("com.example.notes")
        let container = try notes.dataContainer()
        try container.writeAtomically(documents, to: "Documents/library.bin")
        try container.writeAtomically(Data("note".utf8), to: "Documents/note.txt")
        try container.writeAtomically(Data("cache".utf8), to: "Library/Caches/thumb.cache")
        try container.writeAtomically(Data("tmp".utf8), to: "tmp/upload.tmp")
        try container.writeAtomically(Data("re-downloadable".utf8), to: "Documents/offline.bin")
        try container.setExcludedFromBackup(true, at: "Documents/offline.bin")
        let client = notes.keychainClient(on: device)
        try client.add(.genericPassword, KeychainAttributes(service: "sync", account: "ann"), data: Data("token".utf8))
        try client.add(.genericPassword, KeychainAttributes(service: "device", account: "ann", accessibility: .whenUnlockedThisDeviceOnly),
                       data: Data("bound".utf8))
    }

    static func services(_ device: Device) throws -> Set<String> {
        let app = try device.app("com.example.notes")
        do {
            return Set(try app.keychainClient(on: device).query(KeychainQuery(.genericPassword, limit: .all, returning: .all))
                .compactMap(\.attributes.service))
        } catch let error as KeychainError where error.code == .itemNotFound {
            return []
        }
    }

    @Test func aNewDeviceGetsTheDataBackWithoutCachesTmpExcludedFilesOrThisDeviceOnlyItems() async throws {
        let cloud = try await CloudFixture("cloud-roundtrip")
        defer { Task { await cloud.stop() } }
        let phone = try cloud.device("phone")
        let library = CloudFixture.bytes(3 * 1024 * 1024 + 17, seed: 1)
        try Self.populate(phone, documents: library)
        let account = try await cloud.signIn(phone, account: "ann@example.com", create: true)
        let report = try await CloudBackup.backUp(device: phone, account: account, now: true)
        #expect(report.files > 0)
        #expect(report.chunksSent == report.chunks)
        #expect(report.usedBytes > Int64(library.count))

        let tablet = try cloud.device("tablet")
        let tabletAccount = try await cloud.signIn(tablet, account: "ann@example.com", create: false)
        let restored = try await CloudRestore.restore(device: tablet, account: tabletAccount, sourceDevice: account.deviceID)
        #expect(restored.appsRestored == ["com.example.notes"])
        let container = try tablet.app("com.example.notes").dataContainer()
        #expect(try container.read("Documents/library.bin") == library)
        #expect(try container.read("Documents/note.txt") == Data("note".utf8))
        #expect(!container.fileExists("Library/Caches/thumb.cache"))
        #expect(!container.fileExists("tmp/upload.tmp"))
        #expect(!container.fileExists("Documents/offline.bin"))
        // The keychain comes back onto another device (the export is sealed
        // with a key of the account), but never a ThisDeviceOnly item.
        #expect(try Self.services(tablet) == ["sync"])
    }

    @Test func theSameDeviceGetsItsOwnSnapshotBackWithItsThisDeviceOnlyItemsUntouched() async throws {
        let cloud = try await CloudFixture("cloud-same-device")
        defer { Task { await cloud.stop() } }
        let phone = try cloud.device("phone")
        let library = CloudFixture.bytes(100_000, seed: 3)
        try Self.populate(phone, documents: library)
        let account = try await cloud.signIn(phone, account: "ivy", create: true)
        _ = try await CloudBackup.backUp(device: phone, account: account, now: true)
        let container = try phone.app("com.example.notes").dataContainer()
        try container.removeItem("Documents/library.bin")
        try container.writeAtomically(Data("later".utf8), to: "Documents/later.txt")
        let report = try await CloudRestore.restore(device: phone, account: account)
        #expect(report.sourceUDID == phone.identity.udid)
        #expect(try container.read("Documents/library.bin") == library)
        // A full restore: what the snapshot does not hold is gone.
        #expect(!container.fileExists("Documents/later.txt"))
        #expect(try Self.services(phone) == ["sync", "device"])
    }

    @Test func iOSWaitsForLockPowerAndWiFiUnlessNow() async throws {
        let cloud = try await CloudFixture("cloud-conditions")
        defer { Task { await cloud.stop() } }
        let phone = try cloud.device("phone")
        let account = try await cloud.signIn(phone, account: "bob", create: true)
        let refusal = await #expect(throws: CloudBackupError.self) { try await CloudBackup.backUp(device: phone, account: account) }
        #expect(refusal?.code == .conditionsNotMet)
        #expect(refusal?.message.contains("not locked") == true)
        try phone.updateNetwork { network in
            network.setLocked(true)
            network.setPower(true)
        }
        let report = try await CloudBackup.backUp(device: phone, account: account)
        #expect(report.snapshot.snapshotID > 0)
        try phone.updateNetwork { $0.setWiFi(false) }
        await #expect(throws: CloudBackupError.self) { try await CloudBackup.backUp(device: phone, account: account) }
    }

    @Test func anIncrementalBackupSendsOnlyTheChangedChunks() async throws {
        let cloud = try await CloudFixture("cloud-incremental")
        defer { Task { await cloud.stop() } }
        let phone = try cloud.device("phone")
        let container = try phone.app("com.example.notes").dataContainer()
        for index in 0..<20 {
            try container.writeAtomically(CloudFixture.bytes(256 * 1024, seed: UInt64(index)), to: "Documents/file\(index).bin")
        }
        let account = try await cloud.signIn(phone, account: "carol", create: true)
        let first = try await CloudBackup.backUp(device: phone, account: account, now: true)
        try container.writeAtomically(CloudFixture.bytes(256 * 1024, seed: 99), to: "Documents/file3.bin")
        let second = try await CloudBackup.backUp(device: phone, account: account, now: true)
        // The changed file and what changes at every backup: the backup's
        // index files (Manifest.db, Manifest.plist, Status.plist,
        // Info.plist), the keychain export (sealed anew, with a new salt),
        // the snapshot's manifest. None of the 19 unchanged files.
        #expect(first.chunksSent >= 20)
        #expect(second.chunksSent <= 8)
        #expect(second.bytesSent < first.bytesSent / 4)
        #expect(second.filesUnchanged >= 19)
        let snapshots = try await account.client.snapshots(device: account.deviceID)
        #expect(snapshots.count == 1)
        #expect(snapshots.first?.snapshotID == second.snapshot.snapshotID)
    }
}
