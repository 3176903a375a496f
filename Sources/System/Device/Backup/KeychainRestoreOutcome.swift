import Keychain
import MobileBackup

/// What restoring `KeychainDomain` did, following iOS's rules.
public enum KeychainRestoreOutcome: Sendable, Hashable {
    /// The items came back (never `ThisDeviceOnly` ones: exports leave them out).
    case restored(KeychainImportSummary)
    /// The backup has no keychain export.
    case notInBackup
    /// A backup without a password, restored onto another device: its
    /// keychain is sealed to the device it came from and stays out.
    case skippedOnAnotherDevice
    /// The export's payload is damaged; nothing was imported.
    case damaged(BackupPayloadProblem)
    /// The export is not one this module wrote (an iTunes or Finder backup
    /// keeps the keychain sealed with the device's own keys); nothing was imported.
    case unreadableFormat(String)
}
