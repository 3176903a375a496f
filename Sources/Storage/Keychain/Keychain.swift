import Crypto
import FileSystem
import Foundation
import GRDB

/// A device's keychain: an encrypted store of secrets outside every app
/// container, shared by the apps on the device and separated by access group.
///
/// The store is one SQLite database (``databaseFileName``) in a directory the
/// owner chooses, normally a device-level directory beside the app
/// containers, never inside one. Items' data is sealed with AES-GCM under a
/// key per accessibility class; the keys are derived with HKDF-SHA256 from
/// the device secret given here, which is never written to the store or a
/// backup.
///
/// Apps reach their items through ``client(for:)``, which confines them to
/// their access groups; device tools use ``deviceClient``, which sees every
/// group. Any number of `Keychain` values, in any number of processes, may
/// use one store at once: SQLite serializes their writes.
public final class Keychain: Sendable {
    /// The database file inside the store directory (iOS's name).
    public static let databaseFileName = "keychain-2.db"

    /// The directory holding the store.
    public let storeDirectory: URL
    /// The policies and clock in force.
    public let configuration: Configuration

    let store: KeychainStore
    let secret: KeychainDeviceSecret

    /// Opens the keychain in `storeDirectory`, creating the directory and
    /// store if needed.
    ///
    /// - Throws: ``KeychainError`` `authenticationFailed` if the store was
    ///   created with another device secret; `storageFailed` if it cannot be
    ///   opened.
    public init(storeDirectory: URL, deviceSecret: KeychainDeviceSecret, configuration: Configuration = Configuration()) throws {
        do {
            try FileSystemPaths.makeDirectories(atPath: storeDirectory.path)
        } catch {
            throw KeychainError(.storageFailed, operation: .open, "cannot create \(storeDirectory.path)").caused(by: error)
        }
        self.storeDirectory = storeDirectory
        self.configuration = configuration
        secret = deviceSecret
        store = try KeychainStore(url: storeDirectory.appendingPathComponent(Self.databaseFileName), secret: deviceSecret)
    }

    /// The keychain as the app with `entitlements` sees it.
    public func client(for entitlements: KeychainEntitlements) -> KeychainClient {
        KeychainClient(keychain: self, scope: .groups(entitlements.accessGroups))
    }

    /// The keychain as a device tool sees it: every access group. Adds must
    /// name their group. Lock rules still apply.
    public var deviceClient: KeychainClient {
        KeychainClient(keychain: self, scope: .device)
    }
}

extension Keychain {
    /// The policies a keychain follows and the clock it stamps items with.
    public struct Configuration: Sendable {
        /// What ``Keychain/appUninstalled(_:remainingApps:)`` does.
        public var uninstallPolicy: KeychainUninstallPolicy
        /// The current time, for creation and modification dates; tests give a fixed clock.
        public var now: @Sendable () -> Date

        /// Creates a configuration; by default items survive uninstall (iOS's
        /// observed behaviour) and dates come from the system clock.
        public init(uninstallPolicy: KeychainUninstallPolicy = .retain, now: @escaping @Sendable () -> Date = { Date() }) {
            self.uninstallPolicy = uninstallPolicy
            self.now = now
        }
    }
}

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

/// Counting items without reading them, for tools that report what an app
/// keeps (the storage audit).
extension Keychain {
    /// How many items lie in the access groups of `app`, whatever their
    /// class and lock class: no item is unsealed, so the count is the same
    /// whether the device is locked or not.
    public func itemCount(for app: KeychainEntitlements) throws -> Int {
        let filter = ItemFilter(groups: app.accessGroups)
        return try store.read(.query) { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item WHERE \(filter.sql)", arguments: filter.arguments) ?? 0
        }
    }
}

extension Keychain {
    /// The simulated device's lock and passcode state, shared by every
    /// keychain opened on this store.
    public func deviceState() throws -> KeychainDeviceState {
        try store.read(.deviceState) { db in try KeychainStore.deviceState(db) }
    }

    /// Locks the screen: `whenUnlocked` items become unreadable;
    /// `afterFirstUnlock` items stay readable if the device was unlocked since boot.
    public func lock() throws {
        try changeState { $0.isLocked = true }
    }

    /// Unlocks the device, which also counts as the first unlock since boot.
    public func unlock() throws {
        try changeState {
            $0.isLocked = false
            $0.hasBeenUnlockedSinceBoot = true
        }
    }

    /// Reboots: the device comes back locked and not unlocked since boot, so
    /// only `always` items can be read until ``unlock()``.
    public func reboot() throws {
        try changeState {
            $0.isLocked = true
            $0.hasBeenUnlockedSinceBoot = false
        }
    }

    /// Sets a passcode, which `whenPasscodeSetThisDeviceOnly` items need.
    public func setPasscode() throws {
        try changeState { $0.isPasscodeSet = true }
    }

    /// Removes the passcode and, in the same transaction, deletes every
    /// `whenPasscodeSetThisDeviceOnly` item, as iOS does. Returns how many.
    @discardableResult
    public func removePasscode() throws -> Int {
        try store.write(.deviceState) { db in
            var state = try KeychainStore.deviceState(db)
            state.isPasscodeSet = false
            try KeychainStore.setDeviceState(state, db)
            try db.execute(sql: "DELETE FROM item WHERE accessibility = ?",
                           arguments: [KeychainAccessibility.whenPasscodeSetThisDeviceOnly.rawValue])
            return db.changesCount
        }
    }

    private func changeState(_ change: @escaping @Sendable (inout KeychainDeviceState) -> Void) throws {
        try store.write(.deviceState) { db in
            var state = try KeychainStore.deviceState(db)
            change(&state)
            try KeychainStore.setDeviceState(state, db)
        }
    }
}

extension Keychain {
    /// Records that `app` was updated to a new version. It does nothing to
    /// the keychain, on purpose: on iOS an update never touches keychain
    /// items, so the new version finds every item the old one left. The call
    /// exists so the device's lifecycle code has one place to say so.
    public func appUpdated(_ app: KeychainEntitlements) {}

    /// Applies the ``Configuration/uninstallPolicy`` after `app` was
    /// uninstalled, and returns how many items were deleted.
    ///
    /// - ``KeychainUninstallPolicy/retain``: nothing is deleted (iOS's
    ///   observed behaviour); a reinstalled app finds its items again.
    /// - ``KeychainUninstallPolicy/delete``: the items in `app`'s groups that
    ///   none of `remainingApps` is entitled to are deleted, whatever their
    ///   lock class; shared groups keep their items while any app has them.
    @discardableResult
    public func appUninstalled(_ app: KeychainEntitlements, remainingApps: [KeychainEntitlements]) throws -> Int {
        guard configuration.uninstallPolicy == .delete else { return 0 }
        let stillUsed = Set(remainingApps.flatMap(\.accessGroups))
        let orphaned = app.accessGroups.filter { !stillUsed.contains($0) }
        guard !orphaned.isEmpty else { return 0 }
        let filter = ItemFilter(groups: orphaned)
        return try store.write(.uninstall) { db in
            try db.execute(sql: "DELETE FROM item WHERE \(filter.sql)", arguments: filter.arguments)
            return db.changesCount
        }
    }

    /// Deletes every item in the store (`simctl keychain reset`), whatever its
    /// group or class, and returns how many. The lock state is kept.
    @discardableResult
    public func reset() throws -> Int {
        try store.write(.delete) { db in
            try db.execute(sql: "DELETE FROM item")
            return db.changesCount
        }
    }
}
