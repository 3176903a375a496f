import Foundation
import Keychain

/// One installed app in the registry: which containers are its own.
struct AppRecord: Codable, Sendable, Hashable {
    var bundleID: String
    var version: String
    var shortVersion: String?
    /// The bundle directory's name inside the bundle container (`Notes.app`).
    var bundleName: String
    var bundleUUID: String
    var dataUUID: String
    var entitlements: AppEntitlements
    var installed: Date
}

/// `applications.plist`: every installed app and app-group container. It is
/// replaced as a whole with one `rename`, which is the commit point of
/// install; a container directory it does not name is debris of an
/// interrupted operation and is removed on recovery.
struct AppRegistry: Codable, Sendable {
    var apps: [String: AppRecord] = [:]
    /// App-group identifier → container UUID.
    var groups: [String: String] = [:]

    /// The group containers no app in the registry uses any more.
    func unusedGroups() -> [String] {
        let used = Set(apps.values.flatMap(\.entitlements.applicationGroups))
        return groups.keys.filter { !used.contains($0) }.sorted()
    }
}

/// `journal.plist`: an update or uninstall whose new state is decided but
/// not yet fully applied. Writing it is the operation's commit point; every
/// step after it is idempotent and is redone by recovery until the journal
/// is removed.
struct DeviceJournal: Codable, Sendable {
    enum Operation: String, Codable, Sendable {
        case update
        case uninstall
    }

    var operation: Operation
    var bundleID: String
    /// The app as it was.
    var old: AppRecord
    /// The app as it will be (update only).
    var new: AppRecord?
    /// The registry to write once the data has moved.
    var registry: AppRegistry
    /// What to do to the keychain (uninstall only).
    var keychainPolicy: KeychainUninstallPolicy?
}

