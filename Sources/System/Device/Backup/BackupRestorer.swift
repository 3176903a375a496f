import Container
import FileSystem
import Foundation
import Keychain
import MobileBackup

/// Restoring into an `AppContainer`: the format's restore, given the
/// container's root held open.
extension BackupRestorer {
    /// Restores `AppDomain-<bundleID>` into `container` (see the
    /// `DirectoryHandle` form): the container's root is opened once, never
    /// through a link, and everything is written beneath it.
    public func restoreApp(bundleID: String, into container: AppContainer,
                           progress: ((Int64) -> Void)? = nil) throws -> RestoreReport {
        let root = container.root.standardizedFileURL.path
        let handle: DirectoryHandle
        do {
            handle = try DirectoryHandle(openingAt: root, followLinks: false)
        } catch {
            throw MobileBackupError(.ioFailed, path: root, "cannot open the container").caused(by: error)
        }
        return try restoreApp(bundleID: bundleID, into: handle, layout: .container(.app), progress: progress)
    }
}

extension RestoreLayout {
    /// What a full restore does with a container of `layout`, from the
    /// rules table (``StorageRules``): the rows it brings back and the
    /// entries it replaces, and the directories it makes again.
    public static func container(_ layout: ContainerLayout) -> RestoreLayout {
        RestoreLayout(restores: { StorageRules.restoreBringsBack($0, in: layout) },
                      replaces: { StorageRules.restoreReplaces(topLevel: $0, in: layout) },
                      directories: ContainerDirectory.layout(of: layout).map(\.relativePath),
                      stagingDirectory: StorageRules.restoreStagingDirectory(in: layout)?.relativePath)
    }
}

/// The keychain's side of a backup: the format carries the export as the
/// bytes of `KeychainDomain/keychain-backup.plist`; importing them into a
/// keychain is the device's (which owns both).
extension BackupRestorer {
    /// The keychain export's place in a backup.
    public static let keychainDomain = "KeychainDomain"
    /// See ``keychainDomain``.
    public static let keychainFile = "keychain-backup.plist"

    /// Imports the backup's keychain export into `keychain`, with iOS's
    /// rules:
    /// - `ThisDeviceOnly` items never come back on another device (exports
    ///   never hold them, and imports drop any that appear);
    /// - a backup without a password restores keychain items only onto the
    ///   device it was made on (`sameDevice`); elsewhere they stay out
    ///   (``KeychainRestoreOutcome/skippedOnAnotherDevice``);
    /// - a backup with a password restores them onto any device.
    ///
    /// - Throws: `MobileBackupError` `passwordRequired` when the backup is
    ///   encrypted and no password is given, `wrongPassword` when the
    ///   password does not open the keychain export.
    public func restoreKeychain(into keychain: Keychain, sameDevice: Bool, password: String?,
                                sealedWithPassword: Bool = false) throws -> KeychainRestoreOutcome {
        guard let record = reader.record(domain: Self.keychainDomain, relativePath: Self.keychainFile), record.kind == .file else {
            return .notInBackup
        }
        // A plain backup's export is sealed to its device, unless the
        // caller says a password sealed it (iCloud's plain snapshots).
        let encrypted = reader.info.isEncrypted || sealedWithPassword
        if !encrypted && !sameDevice { return .skippedOnAnotherDevice }
        if encrypted && password == nil {
            throw MobileBackupError(.passwordRequired, domain: Self.keychainDomain, relativePath: Self.keychainFile,
                                    "the backup is encrypted; its keychain needs the backup password")
        }
        let export: Data
        switch reader.verifiedContents(of: record) {
        case .success(let data): export = data
        case .failure(let problem): return .damaged(problem)
        }
        do {
            return .restored(try keychain.importBackup(export, password: encrypted ? password : nil))
        } catch let error as KeychainError where error.code == .authenticationFailed {
            if encrypted {
                throw MobileBackupError(.wrongPassword, domain: Self.keychainDomain, relativePath: Self.keychainFile,
                                        "the password does not open the backup's keychain")
            }
            // Sealed to another device's secret: that device's items stay with it.
            return .skippedOnAnotherDevice
        } catch let error as KeychainError where error.code == .decodeFailed {
            return .unreadableFormat(error.message)
        }
    }
}
