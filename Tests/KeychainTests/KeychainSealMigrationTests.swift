import Foundation
import Keychain
import TestSupport
import Testing

/// Issue 14, finding 18, for stores written before the fix: a store of
/// version 1 (no `sealVersion`, seals bound only to the row and the
/// accessibility) is opened by today's code, which seals every item again
/// bound to its class and access group (schema v2).
///
/// The version-1 store is written by `Tests/Oracles/keychain_v1_store.py`,
/// which follows the version-1 source with Python's sqlite3 and
/// `cryptography`, not by today's Swift code; the same script reads the rows
/// back and opens the new seals with version 2's binding, independently.
@Suite(.enabled(if: SystemTool.pythonHasModule("cryptography") || SystemTool.isCI,
                "needs Python's cryptography package"))
struct KeychainSealMigrationTests {
    static let script = BuiltExecutable.packageRoot.appendingPathComponent("Tests/Oracles/keychain_v1_store.py")

    /// One item as the script takes it, with what a query should return.
    struct LegacyItem {
        var id: String
        var itemClass: KeychainItemClass
        var attributes: KeychainAttributes
        var data: Data

        var json: [String: Any] {
            var item: [String: Any] = [
                "id": id, "class": itemClass.rawValue, "group": attributes.accessGroup ?? "",
                "pdmn": (attributes.accessibility ?? .whenUnlocked).rawValue, "data_hex": data.hex,
            ]
            if let service = attributes.service { item["service"] = service }
            if let account = attributes.account { item["account"] = account }
            if let server = attributes.server { item["server"] = server }
            if let code = attributes.protocol?.rawValue { item["protocol"] = code }
            if let port = attributes.port { item["port"] = port }
            if let path = attributes.path { item["path"] = path }
            if let label = attributes.label { item["label"] = label }
            if let tag = attributes.applicationTag { item["tag_hex"] = tag.hex }
            return item
        }
    }

    /// One row as the script reads it back.
    struct Row: Decodable {
        var id, group: String
        var seal_version: Int?
        var sealed_hex: String
        var v1_opens: Bool
        var v2_data_hex: String?
    }

    /// Items of every class, several accessibilities (one `ThisDeviceOnly`),
    /// three of mail's groups, non-ASCII text and empty data.
    static let items: [LegacyItem] = [
        LegacyItem(id: "1E0B0E36-7A5C-4C39-9C7B-3E1C1B5A0001", itemClass: .genericPassword,
                   attributes: KeychainAttributes(service: "bank", account: "me", accessGroup: "TEAM1.com.example.mail",
                                                  accessibility: .whenUnlocked),
                   data: Data(utf8: "hunter2")),
        LegacyItem(id: "1E0B0E36-7A5C-4C39-9C7B-3E1C1B5A0002", itemClass: .genericPassword,
                   attributes: KeychainAttributes(service: "sync", account: "Zoë ✓", label: "Zürich",
                                                  accessGroup: "TEAM1.shared", accessibility: .afterFirstUnlock),
                   data: Data(utf8: "shared token ✓")),
        LegacyItem(id: "1E0B0E36-7A5C-4C39-9C7B-3E1C1B5A0003", itemClass: .internetPassword,
                   attributes: KeychainAttributes(account: "ann", server: "mail.example.com", protocol: .imap, port: 993,
                                                  path: "/inbox", accessGroup: "TEAM1.com.example.mail",
                                                  accessibility: .alwaysThisDeviceOnly),
                   data: Data((0..<200).map { UInt8($0) })),
        LegacyItem(id: "1E0B0E36-7A5C-4C39-9C7B-3E1C1B5A0004", itemClass: .key,
                   attributes: KeychainAttributes(label: "signing", applicationTag: Data([0, 1, 2, 0xFF]),
                                                  accessGroup: "TEAM1.com.example.mail", accessibility: .always),
                   data: Data(repeating: 0xA5, count: 32)),
        LegacyItem(id: "1E0B0E36-7A5C-4C39-9C7B-3E1C1B5A0005", itemClass: .genericPassword,
                   attributes: KeychainAttributes(service: "empty", accessGroup: "TEAM1.com.example.mail",
                                                  accessibility: .whenUnlocked),
                   data: Data()),
    ]

    /// Writes a version-1 store of `items` into `directory` for `secret`.
    static func writeLegacyStore(_ items: [LegacyItem], in directory: URL, secret: KeychainDeviceSecret) throws {
        let json = try JSONSerialization.data(withJSONObject: items.map(\.json))
        let result = try ChildProcess.python([script.path, "write", database(in: directory).path, secret.bytes.hex,
                                              String(decoding: json, as: UTF8.self)])
        try #require(result.status == 0, "\(result.standardError)")
    }

    /// Every item row, read by the script.
    static func rows(in directory: URL, secret: KeychainDeviceSecret) throws -> [Row] {
        let result = try ChildProcess.python([script.path, "rows", database(in: directory).path, secret.bytes.hex])
        try #require(result.status == 0, "\(result.standardError)")
        return try JSONDecoder().decode([Row].self, from: result.standardOutput)
    }

    static func database(in directory: URL) -> URL {
        directory.appendingPathComponent(Keychain.databaseFileName)
    }

    /// Runs one SQL statement on the store, as an attacker with write access
    /// to the file would.
    static func tamper(_ directory: URL, _ sql: String) throws {
        let script = "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit(); c.close()"
        let result = try ChildProcess.python(["-c", script, database(in: directory).path, sql])
        try #require(result.status == 0, "\(result.standardError)")
    }

    @Test func aVersion1StoreIsReadableAndSealedAgainAsVersion2() throws {
        let scratch = try TemporaryDirectory("keychain-v1")
        let secret = KeychainDeviceSecret.random()
        try Self.writeLegacyStore(Self.items, in: scratch.url, secret: secret)
        let before = try Self.rows(in: scratch.url, secret: secret)
        // The script wrote what version 1 wrote: no sealVersion column, seals
        // that open only with version 1's binding.
        try #require(before.count == Self.items.count)
        #expect(before.allSatisfy { $0.seal_version == nil && $0.v1_opens && $0.v2_data_hex == nil })

        let keychain = try Keychain(storeDirectory: scratch.url, deviceSecret: secret)
        let mail = keychain.client(for: Apps.mail)
        for item in Self.items {
            var query = KeychainQuery(item.itemClass, item.attributes, returning: .all)
            query.attributes.accessibility = nil
            let found = try mail.item(query)
            #expect(found.data == item.data, "\(item.id)")
            #expect(found.attributes == item.attributes, "\(item.id)")
        }
        // The calendar shares TEAM1.shared only; the game nothing.
        #expect(try keychain.client(for: Apps.calendar).query(KeychainQuery(.genericPassword, limit: .all)).count == 1)
        expectKeychainError(.itemNotFound) { _ = try keychain.client(for: Apps.game).query(KeychainQuery(.genericPassword)) }

        // Every row is now version 2: a new seal, which opens with version 2's
        // binding (checked by the script, not by our code) to the same data.
        let after = try Self.rows(in: scratch.url, secret: secret)
        for (item, row) in zip(Self.items, after) {
            #expect(row.id == item.id)
            #expect(row.seal_version == 2, "\(item.id)")
            #expect(row.v2_data_hex == item.data.hex, "\(item.id)")
            #expect(!row.v1_opens, "\(item.id)")
        }

        // Opened again, nothing is left to seal and the items still read.
        let reopened = try Keychain(storeDirectory: scratch.url, deviceSecret: secret)
        #expect(try reopened.client(for: Apps.mail).item(.password(service: "bank")).data == Data(utf8: "hunter2"))
        #expect(try Self.rows(in: scratch.url, secret: secret).map(\.sealed_hex) == after.map(\.sealed_hex))
    }

    @Test func aMigratedRowMovedIntoAnotherAppsGroupIsRefused() throws {
        let scratch = try TemporaryDirectory("keychain-v1")
        let secret = KeychainDeviceSecret.random()
        try Self.writeLegacyStore(Self.items, in: scratch.url, secret: secret)
        _ = try Keychain(storeDirectory: scratch.url, deviceSecret: secret)
        // Relabelled after the migration: the seal is version 2 now, bound to
        // the group, so the game gets neither data nor attributes.
        try Self.tamper(scratch.url, "UPDATE item SET accessGroup = 'TEAM2.com.other.game' WHERE service = 'bank'")
        let game = try Keychain(storeDirectory: scratch.url, deviceSecret: secret).client(for: Apps.game)
        expectKeychainError(.decodeFailed) { _ = try game.item(.password(service: "bank")) }
        expectKeychainError(.decodeFailed) { _ = try game.query(.password(service: "bank", returning: .attributes)) }
    }

    /// A version-1 seal does not cover the access group, so a row relabelled
    /// before the upgrade still opens with it. Its identity column (class,
    /// group and primary key, written with the row) no longer matches the
    /// row, and such a row is not sealed again: it stays refused.
    @Test func aVersion1RowRelabelledBeforeTheUpgradeIsNotHandedOver() throws {
        let scratch = try TemporaryDirectory("keychain-v1")
        let secret = KeychainDeviceSecret.random()
        try Self.writeLegacyStore(Self.items, in: scratch.url, secret: secret)
        try Self.tamper(scratch.url, "UPDATE item SET accessGroup = 'TEAM2.com.other.game' WHERE service = 'bank'")
        let before = try Self.rows(in: scratch.url, secret: secret)
        #expect(before.first { $0.group == "TEAM2.com.other.game" }?.v1_opens == true)

        let keychain = try Keychain(storeDirectory: scratch.url, deviceSecret: secret)
        let game = keychain.client(for: Apps.game)
        expectKeychainError(.decodeFailed) { _ = try game.item(.password(service: "bank")) }
        expectKeychainError(.decodeFailed) { _ = try game.query(.password(service: "bank", returning: .attributes)) }
        // The other items were sealed again and read as before.
        let mail = keychain.client(for: Apps.mail)
        #expect(try mail.item(.password(service: "sync", group: "TEAM1.shared")).data == Data(utf8: "shared token ✓"))
        let after = try Self.rows(in: scratch.url, secret: secret)
        #expect(after.filter { $0.seal_version == 2 }.count == Self.items.count - 1)
        #expect(after.first { $0.group == "TEAM2.com.other.game" }?.seal_version == 1)
    }
}

extension Data {
    /// Lower-case hexadecimal, as Python's `bytes.hex()` writes it.
    var hex: String { map { String(format: "%02x", $0) }.joined() }
}
