import Foundation
import Keychain
import PropertyList
import Testing

/// Backup export and import: what leaves the device and who can read it.
@Suite struct KeychainBackupTests {
    private func addItems(_ keychain: Keychain) throws {
        let mail = keychain.client(for: Apps.mail)
        try mail.add(.genericPassword, KeychainAttributes(service: "migrates", account: "a"), data: Data(utf8: "secret-1"))
        try mail.add(.internetPassword, KeychainAttributes(account: "ann", server: "example.com", protocol: .https, port: 443,
                                                           accessibility: .afterFirstUnlock), data: Data(utf8: "secret-2"))
        try mail.add(.genericPassword, KeychainAttributes(service: "stays", accessibility: .whenUnlockedThisDeviceOnly),
                     data: Data(utf8: "device-only"))
        try keychain.setPasscode()
        try mail.add(.genericPassword, KeychainAttributes(service: "pin", accessibility: .whenPasscodeSetThisDeviceOnly),
                     data: Data(utf8: "passcode-only"))
    }

    /// Every password in the store; none when nothing matches.
    private func allItems(_ keychain: Keychain) throws -> [KeychainItem] {
        try [KeychainItemClass.genericPassword, .internetPassword].flatMap { itemClass in
            do {
                return try keychain.deviceClient.query(KeychainQuery(itemClass, limit: .all, returning: .all))
            } catch let error as KeychainError where error.code == .itemNotFound {
                return []
            }
        }
    }

    @Test func thisDeviceOnlyItemsAreNeverExported() throws {
        let fixture = try KeychainFixture()
        try addItems(fixture.keychain)
        for password in [nil, "pw"] as [String?] {
            let other = try KeychainFixture(secret: fixture.secret)
            let summary = try other.keychain.importBackup(fixture.keychain.exportBackup(password: password), password: password)
            #expect(summary == KeychainImportSummary(imported: 2, replaced: 0, skipped: 0))
            #expect(try Set(allItems(other.keychain).map(\.attributes.service)) == [nil, "migrates"])
        }
    }

    @Test func aBackupWithoutPasswordRestoresOnTheSameDeviceOnly() throws {
        let fixture = try KeychainFixture()
        try addItems(fixture.keychain)
        let backup = try fixture.keychain.exportBackup()

        // The same device after an erase: a new store, the same secret.
        let erased = try KeychainFixture(secret: fixture.secret)
        try erased.keychain.importBackup(backup)
        let restored = try erased.keychain.client(for: Apps.mail).item(.password(service: "migrates"))
        #expect(restored.data == Data(utf8: "secret-1"))
        #expect(restored.attributes.accessGroup == "TEAM1.shared")
        #expect(restored.creationDate == fixture.clock.now)

        let otherDevice = try KeychainFixture()
        let error = expectKeychainError(.authenticationFailed) { try otherDevice.keychain.importBackup(backup) }
        #expect(error?.operation == .import)
        #expect(try allItems(otherDevice.keychain).isEmpty)
    }

    @Test func aPasswordBackupRestoresOnAnyDevice() throws {
        let fixture = try KeychainFixture()
        try addItems(fixture.keychain)
        let backup = try fixture.keychain.exportBackup(password: "correct horse")
        let otherDevice = try KeychainFixture()
        try otherDevice.keychain.importBackup(backup, password: "correct horse")
        let restored = try otherDevice.keychain.client(for: Apps.calendar).item(
            KeychainQuery(.internetPassword, KeychainAttributes(server: "example.com"), returning: .all))
        #expect(restored.data == Data(utf8: "secret-2"))
        #expect(restored.attributes.accessibility == .afterFirstUnlock)
        #expect(restored.attributes.port == 443)
    }

    @Test func aWrongOrMissingPasswordIsAnAuthenticationError() throws {
        let fixture = try KeychainFixture()
        try addItems(fixture.keychain)
        let backup = try fixture.keychain.exportBackup(password: "right")
        let otherDevice = try KeychainFixture()
        let wrong = expectKeychainError(.authenticationFailed) { try otherDevice.keychain.importBackup(backup, password: "wrong") }
        #expect(wrong?.message.contains("password") == true)
        expectKeychainError(.authenticationFailed) { try otherDevice.keychain.importBackup(backup) }
        expectKeychainError(.invalidParameter) { try fixture.keychain.exportBackup(password: "") }
    }

    @Test func theBackupHoldsNoPlaintext() throws {
        let fixture = try KeychainFixture()
        try addItems(fixture.keychain)
        for password in [nil, "pw"] as [String?] {
            let backup = try fixture.keychain.exportBackup(password: password)
            for secret in ["secret-1", "secret-2", "device-only", "passcode-only"] {
                #expect(!backup.containsBytes(Data(utf8: secret)))
            }
            #expect(!backup.containsBytes(fixture.secret.bytes))
            let envelope = try PropertyListValue.decode(backup, as: .binary)
            #expect(envelope["Protection"]?.stringValue == (password == nil ? "device" : "password"))
        }
    }

    @Test func importReplacesItemsWithTheSameIdentity() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        try mail.add(.genericPassword, KeychainAttributes(service: "s"), data: Data(utf8: "backed up"))
        let backup = try fixture.keychain.exportBackup()
        try mail.update(.password(service: "s"), with: KeychainUpdate(data: Data(utf8: "newer")))
        try mail.add(.genericPassword, KeychainAttributes(service: "later"), data: Data())
        let summary = try fixture.keychain.importBackup(backup)
        #expect(summary == KeychainImportSummary(imported: 1, replaced: 1, skipped: 0))
        #expect(try mail.item(.password(service: "s")).data == Data(utf8: "backed up"))
        #expect(try mail.query(KeychainQuery(.genericPassword, limit: .all)).count == 2)
    }

    @Test func exportIgnoresTheLockState() throws {
        let fixture = try KeychainFixture()
        try addItems(fixture.keychain)
        try fixture.keychain.reboot()
        let other = try KeychainFixture(secret: fixture.secret)
        #expect(try other.keychain.importBackup(fixture.keychain.exportBackup()).imported == 2)
    }

    /// `value` as a binary property list (empty if it cannot be written,
    /// which the test then also reports as undecodable).
    private static func binary(_ value: PropertyListValue) -> Data {
        (try? value.encoded(as: .binary)) ?? Data()
    }

    @Test(arguments: [
        Data(),
        Data(utf8: "not a plist"),
        binary(["Format": "something else"]),
        binary(["Format": "Sandbox keychain backup", "Version": 99]),
        binary(["Format": "Sandbox keychain backup", "Version": 1, "Protection": "device"]),
        binary(["Format": "Sandbox keychain backup", "Version": 1, "Protection": "device", "Salt": .data(Data()),
                "Payload": .data(Data([1, 2, 3]))]),
    ])
    func malformedBackupsAreDecodeErrors(backup: Data) throws {
        let fixture = try KeychainFixture()
        expectKeychainError(.decodeFailed) { try fixture.keychain.importBackup(backup) }
    }

    @Test func aPasswordBackupAskingForTooManyRoundsIsRefused() throws {
        let fixture = try KeychainFixture()
        let backup = try fixture.keychain.exportBackup(password: "pw")
        guard case .dictionary(var fields) = try PropertyListValue.decode(backup, as: .binary) else {
            Issue.record("the backup is not a dictionary")
            return
        }
        fields["Rounds"] = .integer(PropertyListInteger(Int64(1) << 40))
        let crafted = try PropertyListValue.dictionary(fields).encoded(as: .binary)
        expectKeychainError(.decodeFailed) { try fixture.keychain.importBackup(crafted, password: "pw") }
    }
}
