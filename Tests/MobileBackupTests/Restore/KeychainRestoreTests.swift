import Device
import Foundation
import Keychain
import Testing
@testable import MobileBackup

/// The keychain in a backup follows iOS's rules on restore.
@Suite struct KeychainRestoreTests {
    static let app = KeychainEntitlements(applicationIdentifier: "TEAM1.com.example.possessions")

    /// A keychain store in the fixture's scratch area.
    static func keychain(_ fixture: BackupFixture, _ name: String, secret: KeychainDeviceSecret) throws -> Keychain {
        try Keychain(storeDirectory: fixture.base.appendingPathComponent(name), deviceSecret: secret)
    }

    /// A device keychain with one migrating item and one `ThisDeviceOnly` item.
    static func filledKeychain(_ fixture: BackupFixture, secret: KeychainDeviceSecret) throws -> Keychain {
        let keychain = try keychain(fixture, "source-keychain", secret: secret)
        let client = keychain.client(for: app)
        try client.add(.genericPassword, KeychainAttributes(service: "sync", account: "ann"), data: Data("token".utf8))
        try client.add(.genericPassword, KeychainAttributes(service: "device", account: "ann", accessibility: .afterFirstUnlockThisDeviceOnly),
                       data: Data("device-bound".utf8))
        return keychain
    }

    static func services(_ keychain: Keychain) throws -> Set<String> {
        do {
            let items = try keychain.client(for: app).query(KeychainQuery(.genericPassword, limit: .all, returning: .all))
            return Set(items.compactMap(\.attributes.service))
        } catch let error as KeychainError where error.code == .itemNotFound {
            return []
        }
    }

    /// Backs up the fixture with `keychain`'s export (sealed as iOS would: with the backup password, or to the device).
    static func backUp(_ fixture: BackupFixture, _ keychain: Keychain, password: String?) throws -> BackupRestorer {
        try fixture.writer(password: password).backUp(fixture.sources(keychain: try keychain.exportBackup(password: password)))
        return BackupRestorer(try BackupReader(directory: fixture.backupDirectory, password: password))
    }

    @Test func aPlainBackupRestoresTheKeychainOnTheSameDeviceOnly() throws {
        let fixture = try BackupFixture()
        let secret = KeychainDeviceSecret.random()
        let restorer = try Self.backUp(fixture, try Self.filledKeychain(fixture, secret: secret), password: nil)

        let erased = try Self.keychain(fixture, "same-device", secret: secret)
        let outcome = try restorer.restoreKeychain(into: erased, sameDevice: true, password: nil)
        #expect(outcome == .restored(KeychainImportSummary(imported: 1, replaced: 0, skipped: 0)))
        #expect(try Self.services(erased) == ["sync"])

        let other = try Self.keychain(fixture, "other-device", secret: .random())
        #expect(try restorer.restoreKeychain(into: other, sameDevice: false, password: nil) == .skippedOnAnotherDevice)
        // Even when the caller wrongly claims the same device, another device's seal keeps the items out.
        #expect(try restorer.restoreKeychain(into: other, sameDevice: true, password: nil) == .skippedOnAnotherDevice)
        #expect(try Self.services(other).isEmpty)
    }

    @Test func anEncryptedBackupRestoresTheKeychainOnAnyDeviceButNotThisDeviceOnlyItems() throws {
        let fixture = try BackupFixture()
        let restorer = try Self.backUp(fixture, try Self.filledKeychain(fixture, secret: .random()), password: "pw")
        let other = try Self.keychain(fixture, "other-device", secret: .random())
        let outcome = try restorer.restoreKeychain(into: other, sameDevice: false, password: "pw")
        #expect(outcome == .restored(KeychainImportSummary(imported: 1, replaced: 0, skipped: 0)))
        #expect(try Self.services(other) == ["sync"])
        let item = try other.client(for: Self.app).item(KeychainQuery(.genericPassword, KeychainAttributes(service: "sync"), returning: .all))
        #expect(item.data == Data("token".utf8))
    }

    @Test func aWrongOrMissingPasswordIsATypedError() throws {
        let fixture = try BackupFixture()
        let restorer = try Self.backUp(fixture, try Self.filledKeychain(fixture, secret: .random()), password: "pw")
        let other = try Self.keychain(fixture, "other-device", secret: .random())
        let wrong = try #require(throws: MobileBackupError.self) {
            try restorer.restoreKeychain(into: other, sameDevice: false, password: "nope")
        }
        #expect(wrong.code == .wrongPassword)
        let missing = try #require(throws: MobileBackupError.self) {
            try restorer.restoreKeychain(into: other, sameDevice: true, password: nil)
        }
        #expect(missing.code == .passwordRequired)
        // Opening the backup itself with a wrong password fails the same way.
        let open = try #require(throws: MobileBackupError.self) { try BackupReader(directory: fixture.backupDirectory, password: "nope") }
        #expect(open.code == .wrongPassword)
    }

    @Test func aBackupWithoutKeychainOrWithAForeignOneSaysSo() throws {
        let fixture = try BackupFixture()
        try fixture.writer().backUp(Array(fixture.sources().prefix(2)))
        let keychain = try Self.keychain(fixture, "k", secret: .random())
        #expect(try BackupRestorer(try BackupReader(directory: fixture.backupDirectory))
            .restoreKeychain(into: keychain, sameDevice: true, password: nil) == .notInBackup)
        try fixture.writer().backUp(fixture.sources(keychain: Data("not a sandbox export".utf8)))
        let outcome = try BackupRestorer(try BackupReader(directory: fixture.backupDirectory))
            .restoreKeychain(into: keychain, sameDevice: true, password: nil)
        guard case .unreadableFormat = outcome else {
            Issue.record("expected unreadableFormat, got \(outcome)")
            return
        }
    }
}
