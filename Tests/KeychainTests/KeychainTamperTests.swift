import Foundation
import Keychain
import TestSupport
import Testing

/// Issue 14, finding 18: a row relabelled in the database (its access group
/// or class changed to hand the item to another app) is never returned: the
/// item's seal is bound to every stored attribute that decides access.
@Suite struct KeychainTamperTests {
    /// Runs one SQL statement on the store's database, as an attacker with
    /// write access to the file would.
    static func tamper(_ fixture: KeychainFixture, _ sql: String) throws {
        let database = fixture.directory.appendingPathComponent("keychain-2.db").path
        let script = "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit(); c.close()"
        let result = try ChildProcess.python(["-c", script, database, sql])
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test func anItemMovedIntoAnotherAppsGroupIsNotHandedToIt() throws {
        let fixture = try KeychainFixture()
        try fixture.keychain.client(for: Apps.mail).add(.genericPassword, KeychainAttributes(service: "bank", account: "me"),
                                                       data: Data(utf8: "hunter2"))
        try Self.tamper(fixture, "UPDATE item SET accessGroup = 'TEAM2.com.other.game'")
        let game = fixture.keychain.client(for: Apps.game)
        // Neither the data nor the attributes reach the other app.
        expectKeychainError(.decodeFailed) { _ = try game.item(.password(service: "bank")) }
        expectKeychainError(.decodeFailed) {
            var attributesOnly = KeychainQuery.password(service: "bank")
            attributesOnly.returning = .attributes
            _ = try game.query(attributesOnly)
        }
        // The owner no longer sees it in its group either; nothing leaks.
        expectKeychainError(.itemNotFound) { _ = try fixture.keychain.client(for: Apps.mail).item(.password(service: "bank")) }
    }

    @Test func anItemWhoseClassWasChangedDoesNotOpen() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        try mail.add(.genericPassword, KeychainAttributes(service: "s"), data: Data(utf8: "x"))
        try Self.tamper(fixture, "UPDATE item SET class = 'inet'")
        let reopened = try Keychain(storeDirectory: fixture.directory, deviceSecret: KeychainDeviceSecret(fixture.secret.bytes))
        #expect(throws: KeychainError.self) { _ = try reopened.client(for: Apps.mail).query(KeychainQuery(.internetPassword)) }
    }

    @Test func updatesThatMoveAnItemKeepItReadable() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        try mail.add(.genericPassword, KeychainAttributes(service: "s"), data: Data(utf8: "shared secret"))
        try mail.update(.password(service: "s"), with: KeychainUpdate(attributes: .init(accessGroup: "TEAM1.shared")))
        let calendar = fixture.keychain.client(for: Apps.calendar)
        #expect(try calendar.item(.password(service: "s")).data == Data(utf8: "shared secret"))
    }
}
