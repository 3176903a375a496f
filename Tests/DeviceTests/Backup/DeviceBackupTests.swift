import Container
@testable import Device
import Foundation
import Keychain
import MobileBackup
import PropertyList
import Testing

/// `device.backUp(to:password:)` and `device.restore(from:password:)`, onto
/// the same device and onto another one.
@Suite struct DeviceBackupTests {
    static let group = "group.com.example.shared"
    static let entitlements: PropertyListValue = ["com.apple.security.application-groups": ["group.com.example.shared"]]

    /// A device with Notes (using a group) and Photos installed, data in
    /// every kind of place, and two keychain items: one that migrates, one
    /// `ThisDeviceOnly`.
    struct Source {
        let fixture: DeviceFixture
        let notes: InstalledApp
        let backups: URL

        init() throws {
            fixture = try DeviceFixture("backup-source")
            notes = try fixture.device.install(bundleAt: try fixture.bundle(identifier: "com.example.notes", entitlements: DeviceBackupTests.entitlements))
            _ = try fixture.device.install(bundleAt: try fixture.bundle(identifier: "com.example.photos", name: "Photos"))
            backups = fixture.temp.url.appendingPathComponent("backups")
            let container = try notes.dataContainer()
            try container.writeAtomically(Data("note".utf8), to: "Documents/note.txt")
            try container.writeAtomically(Data("prefs".utf8), to: "Library/Preferences/com.example.notes.plist")
            try container.writeAtomically(Data("cache".utf8), to: "Library/Caches/thumb.cache")
            try container.writeAtomically(Data("tmp".utf8), to: "tmp/upload.tmp")
            try container.writeAtomically(Data("re-downloadable".utf8), to: "Documents/offline.bin")
            try container.setExcludedFromBackup(true, at: "Documents/offline.bin")
            let groupURL = try #require(notes.groupContainers[DeviceBackupTests.group])
            try Data("shared".utf8).write(to: groupURL.appendingPathComponent("shared.json"))
            let client = notes.keychainClient(on: fixture.device)
            try client.add(.genericPassword, KeychainAttributes(service: "sync", account: "ann"), data: Data("token".utf8))
            try client.add(.genericPassword, KeychainAttributes(service: "device", account: "ann", accessibility: .whenUnlockedThisDeviceOnly),
                           data: Data("bound".utf8))
        }

        var backupDirectory: URL { backups.appendingPathComponent(fixture.device.identity.udid) }
    }

    static func services(_ device: Device, _ app: InstalledApp) throws -> Set<String> {
        do {
            let items = try app.keychainClient(on: device).query(KeychainQuery(.genericPassword, limit: .all, returning: .all))
            return Set(items.compactMap(\.attributes.service))
        } catch let error as KeychainError where error.code == .itemNotFound {
            return []
        }
    }

    @Test func aBackupHoldsAppGroupAndKeychainDomainsButNotCachesTmpOrExcludedItems() throws {
        let source = try Source()
        let summary = try source.fixture.device.backUp(to: source.backups)
        #expect(!summary.isEncrypted)
        let reader = try BackupReader(directory: source.backupDirectory)
        #expect(reader.domains == ["AppDomain-com.example.notes", "AppDomain-com.example.photos",
                                   "AppDomainGroup-group.com.example.shared", "KeychainDomain"])
        let paths = Set(reader.records(inDomain: "AppDomain-com.example.notes").map(\.relativePath))
        #expect(paths.contains("Documents/note.txt"))
        #expect(paths.contains("Library/Preferences/com.example.notes.plist"))
        #expect(!paths.contains { $0.hasPrefix("Library/Caches") || $0.hasPrefix("tmp") || $0.hasSuffix(".app") || $0.hasPrefix(".com.apple") })
        #expect(!paths.contains("Documents/offline.bin"))
        #expect(reader.record(domain: "AppDomainGroup-group.com.example.shared", relativePath: "shared.json") != nil)
        #expect(reader.info.applications.map(\.bundleIdentifier).sorted() == ["com.example.notes", "com.example.photos"])
        #expect(reader.verify().isClean)

        // The next backup builds on this one.
        let again = try source.fixture.device.backUp(to: source.backups)
        #expect(again.isIncremental)
        #expect(again.payloadsReused >= 3)
    }

    @Test func restoreOntoTheSameDeviceBringsDataAndKeychainBack() throws {
        let source = try Source()
        try source.fixture.device.backUp(to: source.backups)
        let container = try source.notes.dataContainer()
        try container.removeItem("Documents/note.txt")
        try container.writeAtomically(Data("after".utf8), to: "Documents/after.txt")
        _ = try source.notes.keychainClient(on: source.fixture.device).delete(KeychainQuery(.genericPassword, limit: .all))

        let report = try source.fixture.device.restore(from: source.backupDirectory)
        #expect(report.isClean)
        #expect(report.appsNotInstalled.isEmpty)
        #expect(try container.read("Documents/note.txt") == Data("note".utf8))
        #expect(!container.fileExists("Documents/after.txt"))
        #expect(try container.contentsOfDirectory("Library/Caches").isEmpty)
        #expect(try container.contentsOfDirectory("tmp").isEmpty)
        #expect(report.keychain == .restored(KeychainImportSummary(imported: 1, replaced: 0, skipped: 0)))
        // ThisDeviceOnly items are never in a backup, not even for the same device.
        #expect(try Self.services(source.fixture.device, source.notes) == ["sync"])
    }

    @Test func anEncryptedRestoreOntoASecondDeviceLeavesThisDeviceOnlyItemsBehind() throws {
        let source = try Source()
        try source.fixture.device.backUp(to: source.backups, password: "hunter2",
                                         keyDerivation: BackupKeyDerivation(doubleProtectionIterations: 1_000, iterations: 1_000))
        let target = try DeviceFixture("backup-target")
        let notes = try target.device.install(bundleAt: try target.bundle(identifier: "com.example.notes", entitlements: Self.entitlements))

        let wrong = try #require(throws: MobileBackupError.self) { try target.device.restore(from: source.backupDirectory, password: "nope") }
        #expect(wrong.code == .wrongPassword)

        let report = try target.device.restore(from: source.backupDirectory, password: "hunter2")
        #expect(report.isClean)
        #expect(report.appsNotInstalled == ["com.example.photos"])
        let container = try notes.dataContainer()
        #expect(try container.read("Documents/note.txt") == Data("note".utf8))
        #expect(!container.fileExists("Documents/offline.bin"))
        let groupURL = try #require(notes.groupContainers[Self.group])
        #expect(try Data(contentsOf: groupURL.appendingPathComponent("shared.json")) == Data("shared".utf8))
        #expect(report.keychain == .restored(KeychainImportSummary(imported: 1, replaced: 0, skipped: 0)))
        #expect(try Self.services(target.device, notes) == ["sync"])
    }

    @Test func aPlainBackupKeepsTheKeychainOffASecondDevice() throws {
        let source = try Source()
        try source.fixture.device.backUp(to: source.backups)
        let target = try DeviceFixture("backup-target")
        let notes = try target.device.install(bundleAt: try target.bundle(identifier: "com.example.notes", entitlements: Self.entitlements))
        let report = try target.device.restore(from: source.backupDirectory)
        #expect(try notes.dataContainer().read("Documents/note.txt") == Data("note".utf8))
        #expect(report.keychain == .skippedOnAnotherDevice)
        #expect(try Self.services(target.device, notes).isEmpty)
    }

    @Test func aRunningAppBlocksTheRestoreBeforeAnythingChanges() throws {
        let source = try Source()
        try source.fixture.device.backUp(to: source.backups)
        try source.notes.dataContainer().writeAtomically(Data("newer".utf8), to: "Documents/newer.txt")
        let run = try source.fixture.device.run("com.example.notes", delegate: EmptyDelegate())
        try run.launch()
        let error = try #require(throws: DeviceError.self) { try source.fixture.device.restore(from: source.backupDirectory) }
        #expect(error.code == .appRunning)
        #expect(try source.notes.dataContainer().fileExists("Documents/newer.txt"))
        try run.terminate()
        #expect(try source.fixture.device.restore(from: source.backupDirectory).isClean)
        #expect(try !source.notes.dataContainer().fileExists("Documents/newer.txt"))
    }

    /// Issue 14, finding 19: a snapshot still uploading is refused before
    /// anything changes, and restored only with `force`.
    @Test func anUnfinishedSnapshotIsRestoredOnlyWithForce() throws {
        let source = try Source()
        try source.fixture.device.backUp(to: source.backups)
        let status: PropertyListValue = ["SnapshotState": .string("uploading"), "IsFullBackup": .bool(true), "Version": .string("3.3")]
        try status.encoded(as: .binary).write(to: source.backupDirectory.appendingPathComponent("Status.plist"))
        let container = try source.notes.dataContainer()
        try container.writeAtomically(Data("after".utf8), to: "Documents/after.txt")

        let error = try #require(throws: MobileBackupError.self) { try source.fixture.device.restore(from: source.backupDirectory) }
        #expect(error.code == .unfinishedBackup)
        #expect(container.fileExists("Documents/after.txt"))
        let report = try source.fixture.device.restore(from: source.backupDirectory, force: true)
        #expect(report.isClean)
        #expect(!container.fileExists("Documents/after.txt"))
        #expect(try container.read("Documents/note.txt") == Data("note".utf8))
    }
}
