import Crypto
import Foundation
import GRDB

extension Keychain {
    /// The items that may leave the device, sealed into a backup blob (see
    /// `KeychainBackupFormat` for its layout).
    ///
    /// `ThisDeviceOnly` items (and so `whenPasscodeSetThisDeviceOnly` ones)
    /// are never included. Without a password the items are sealed under a
    /// key derived from the device secret, so only this device (any store
    /// opened with the same secret) can import them, like an unencrypted iOS
    /// backup; with one they are sealed under a PBKDF2-SHA256 key, so any
    /// device that is given the password can, like an encrypted backup. The
    /// lock state does not matter: iOS backs up a locked device too.
    ///
    /// - Throws: ``KeychainError`` `invalidParameter` for an empty password.
    public func exportBackup(password: String? = nil) throws -> Data {
        do {
            if password?.isEmpty == true { throw KeychainError(.invalidParameter, "the backup password is empty") }
            let keys = store.keys
            let migrating = KeychainAccessibility.allCases.filter { !$0.isThisDeviceOnly }.map(\.rawValue)
            let stored = try store.read(.export) { db in
                try Row.fetchAll(db, sql: """
                    SELECT \(StoredItem.columns) FROM item
                    WHERE accessibility IN (\(migrating.map { _ in "?" }.joined(separator: ", "))) ORDER BY rowOrder
                    """, arguments: StatementArguments(migrating)).map(StoredItem.init(row:))
            }
            let items = try stored.map { item in
                BackupItem(itemClass: item.itemClass, attributes: item.attributes, creationDate: item.creationDate,
                           modificationDate: item.modificationDate,
                           data: try ItemSealing.unseal(item.sealedData, item.binding, keys: keys))
            }
            let salt = Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
            let protection: KeychainBackupFormat.Protection = password == nil ? .device : .password
            let rounds = password == nil ? nil : BackupKeys.defaultRounds
            let key = try backupKey(protection, password: password, salt: salt, rounds: rounds)
            let sealed = try AES.GCM.seal(KeychainBackupFormat.encodeItems(items), using: key,
                                          authenticating: KeychainBackupFormat.associatedData(protection))
            guard let payload = sealed.combined else { throw KeychainError(.storageFailed, "AES-GCM gave no combined form") }
            return try KeychainBackupFormat.encode(.init(protection: protection, salt: salt, rounds: rounds, payload: payload))
        } catch {
            throw KeychainStore.keychainError(error, during: .export)
        }
    }

    /// Adds the items of a backup made by ``exportBackup(password:)``, sealed
    /// under this device's class keys. An item with the same identity as an
    /// existing one replaces it; items keep their access groups and dates.
    /// All items are imported or none.
    ///
    /// - Throws: ``KeychainError`` `authenticationFailed` for a wrong or
    ///   missing password, or a password-less backup from another device;
    ///   `decodeFailed` for data that is not a keychain backup.
    @discardableResult
    public func importBackup(_ backup: Data, password: String? = nil) throws -> KeychainImportSummary {
        do {
            let envelope = try KeychainBackupFormat.decodeEnvelope(backup)
            if envelope.protection == .password && password == nil {
                throw KeychainError(.authenticationFailed, "the backup is protected by a password; none was given")
            }
            let key = try backupKey(envelope.protection, password: password, salt: envelope.salt, rounds: envelope.rounds)
            guard let box = try? AES.GCM.SealedBox(combined: envelope.payload) else {
                throw KeychainError(.decodeFailed, "the backup payload is too short to be sealed data")
            }
            let plain: Data
            do {
                plain = try AES.GCM.open(box, using: key,
                                         authenticating: KeychainBackupFormat.associatedData(envelope.protection))
            } catch {
                throw KeychainError(.authenticationFailed, envelope.protection == .password
                    ? "the backup password is wrong (or the backup was altered)"
                    : "the backup was made on another device (or altered); only a password-protected backup moves between devices")
            }
            let items = try KeychainBackupFormat.decodeItems(plain)
            return try restore(items)
        } catch {
            throw KeychainStore.keychainError(error, during: .import)
        }
    }

    private func restore(_ items: [BackupItem]) throws -> KeychainImportSummary {
        let keys = store.keys
        let migrating = items.filter { !($0.attributes.accessibility ?? .default).isThisDeviceOnly }
        let rows = try migrating.map { item in
            return try StoredItem(
                persistentID: UUID().uuidString, itemClass: item.itemClass, attributes: item.attributes,
                creationDate: item.creationDate, modificationDate: item.modificationDate, sealedData: Data())
                .sealing(item.data, keys: keys)
        }
        let replaced = try store.write(.import) { db in
            var replaced = 0
            for row in rows {
                try db.execute(sql: "DELETE FROM item WHERE identity = ?", arguments: [row.identity])
                replaced += db.changesCount
                try KeychainStore.insert(row, db)
            }
            return replaced
        }
        return KeychainImportSummary(imported: rows.count, replaced: replaced, skipped: items.count - migrating.count)
    }

    private func backupKey(_ protection: KeychainBackupFormat.Protection, password: String?, salt: Data, rounds: Int?) throws -> SymmetricKey {
        switch protection {
        case .device:
            return BackupKeys.deviceKey(secret, salt: salt)
        case .password:
            return try BackupKeys.passwordKey(password ?? "", salt: salt, rounds: rounds ?? BackupKeys.defaultRounds)
        }
    }
}
