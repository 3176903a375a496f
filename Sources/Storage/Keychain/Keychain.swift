import FileSystem
import Foundation

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
