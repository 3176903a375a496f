import Crypto
import Foundation
import GRDB

/// The SQLite database of one device's keychain, opened through a GRDB
/// `DatabasePool` (WAL mode: readers never block the writer, and SQLite's
/// file locks serialize writers across pools and processes).
struct KeychainStore: Sendable {
    let pool: DatabasePool
    let keys: ClassKeys

    /// How long a writer waits for another connection's write to finish
    /// before reporting `storageFailed`.
    static let busyTimeout: TimeInterval = 10

    /// Opens (creating if needed) the database at `url` and checks that
    /// `secret` is the one the store was created with.
    init(url: URL, secret: KeychainDeviceSecret) throws {
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(Self.busyTimeout)
            configuration.label = "Keychain"
            pool = try DatabasePool(path: url.path, configuration: configuration)
            try StoreSchema.migrator.migrate(pool)
            let salt = try pool.write { db -> Data in
                // Two processes may create the store at once; the first row wins
                // and both then read it.
                let salt = Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
                let check = ClassKeys(secret: secret, salt: salt).check
                let initial = KeychainDeviceState.initial
                try db.execute(sql: """
                    INSERT OR IGNORE INTO device (id, salt, secretCheck, isLocked, unlockedSinceBoot, passcodeSet)
                    VALUES (1, ?, ?, ?, ?, ?)
                    """, arguments: [salt, check, initial.isLocked, initial.hasBeenUnlockedSinceBoot, initial.isPasscodeSet])
                return try Data.fetchOne(db, sql: "SELECT salt FROM device WHERE id = 1") ?? salt
            }
            keys = ClassKeys(secret: secret, salt: salt)
            let stored = try pool.read { db in try Data.fetchOne(db, sql: "SELECT secretCheck FROM device WHERE id = 1") }
            guard stored == keys.check else {
                throw KeychainError(.authenticationFailed, operation: .open,
                                    "the device secret is not the one this keychain store was created with")
            }
            try Self.resealLegacyItems(pool, keys: keys)
        } catch {
            throw Self.keychainError(error, during: .open)
        }
    }

    /// Runs `body` in a read transaction (a consistent snapshot).
    func read<T: Sendable>(_ operation: KeychainError.Operation, _ body: @Sendable (Database) throws -> T) throws -> T {
        do { return try pool.read(body) } catch { throw Self.keychainError(error, during: operation) }
    }

    /// Runs `body` in an immediate write transaction, rolled back if it throws.
    func write<T: Sendable>(_ operation: KeychainError.Operation, _ body: @Sendable (Database) throws -> T) throws -> T {
        do { return try pool.write(body) } catch { throw Self.keychainError(error, during: operation) }
    }

    /// The lock state as stored.
    static func deviceState(_ db: Database) throws -> KeychainDeviceState {
        guard let row = try Row.fetchOne(db, sql: "SELECT isLocked, unlockedSinceBoot, passcodeSet FROM device WHERE id = 1") else {
            throw KeychainError(.storageFailed, "the keychain store has no device row")
        }
        return KeychainDeviceState(isLocked: row["isLocked"], hasBeenUnlockedSinceBoot: row["unlockedSinceBoot"],
                                   isPasscodeSet: row["passcodeSet"])
    }

    static func setDeviceState(_ state: KeychainDeviceState, _ db: Database) throws {
        try db.execute(sql: "UPDATE device SET isLocked = ?, unlockedSinceBoot = ?, passcodeSet = ? WHERE id = 1",
                       arguments: [state.isLocked, state.hasBeenUnlockedSinceBoot, state.isPasscodeSet])
    }

    /// Inserts `item`; `duplicateItem` if its identity is taken.
    static func insert(_ item: StoredItem, _ db: Database) throws {
        let columnCount = StoredItem.columns.split(separator: ",").count
        let placeholders = Array(repeating: "?", count: columnCount).joined(separator: ", ")
        try db.execute(sql: "INSERT INTO item (\(StoredItem.columns)) VALUES (\(placeholders))", arguments: item.arguments)
    }

    /// Replaces the row of `item` (matched by persistent identifier).
    static func replace(_ item: StoredItem, _ db: Database) throws {
        try db.execute(sql: """
            UPDATE item SET class = ?, accessGroup = ?, accessibility = ?, identity = ?, service = ?, account = ?, \
            server = ?, protocol = ?, port = ?, path = ?, label = ?, applicationTag = ?, creationDate = ?, \
            modificationDate = ?, sealedData = ? WHERE persistentID = ?
            """, arguments: [item.itemClass.rawValue, item.accessGroup, item.accessibility.rawValue, item.identity,
                             item.attributes.service, item.attributes.account, item.attributes.server,
                             item.attributes.protocol?.rawValue, item.attributes.port.map { Int64($0) },
                             item.attributes.path, item.attributes.label, item.attributes.applicationTag,
                             item.creationDate.timeIntervalSince1970, item.modificationDate.timeIntervalSince1970,
                             item.sealedData, item.persistentID])
    }

    /// Deletes the rows with these persistent identifiers.
    static func delete(_ items: [StoredItem], _ db: Database) throws {
        for item in items {
            try db.execute(sql: "DELETE FROM item WHERE persistentID = ?", arguments: [item.persistentID])
        }
    }

    /// `error` as a ``KeychainError``: a unique-constraint failure is a
    /// duplicate item; any other failure is `storageFailed`, with the
    /// error kept as its cause (a full disk stays `isDiskFull` where the
    /// cause says so).
    static func keychainError(_ error: any Error, during operation: KeychainError.Operation) -> KeychainError {
        if let error = error as? KeychainError { return error.during(operation) }
        if let error = error as? DatabaseError {
            if error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                return KeychainError(.duplicateItem, operation: operation, "an item with the same identity already exists")
            }
            return KeychainError(.storageFailed, operation: operation, "the keychain database failed").caused(by: error)
        }
        return KeychainError(.storageFailed, operation: operation, "the keychain's storage failed").caused(by: error)
    }
}

extension KeychainStore {
    /// Seals every row written before the binding covered the class and the
    /// access group again, bound to them. A row whose old seal does not open
    /// (altered) is left as it is: it fails to open, as before.
    ///
    /// Version 1's seal did not cover the class or the access group, so it
    /// cannot tell a row relabelled in the database before the upgrade; the
    /// row's `identity`, written with it from its class, group and primary
    /// key, can, unless the attacker rewrote that too. A row whose identity
    /// is not its own is left unsealed: sealing it would bless the new label,
    /// and left at version 1 it fails to open for everyone.
    static func resealLegacyItems(_ pool: DatabasePool, keys: ClassKeys) throws {
        // Looked for in a read first: every open of the store comes here,
        // and only a store written by an earlier version has such rows.
        let pending = try pool.read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM item WHERE sealVersion = 1)") }
        guard pending == true else { return }
        try pool.write { db in
            let rows = try Row.fetchAll(db, sql: "SELECT \(StoredItem.columns) FROM item WHERE sealVersion = 1")
            for row in rows {
                let item = try StoredItem(row: row)
                let storedIdentity: Data? = row["identity"]
                guard storedIdentity == item.identity,
                      let data = try? ItemSealing.unsealLegacy(item.sealedData, item.binding, keys: keys) else { continue }
                try db.execute(sql: "UPDATE item SET sealedData = ?, sealVersion = 2 WHERE persistentID = ?",
                               arguments: [try ItemSealing.seal(data, item.binding, keys: keys), item.persistentID])
            }
        }
    }
}
