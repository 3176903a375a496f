import Container
import Foundation
import Keychain
import Preferences

/// An app installed on a device, with its containers.
public struct InstalledApp: Sendable {
    /// `CFBundleIdentifier`.
    public var bundleID: String
    /// `CFBundleVersion`.
    public var version: String
    /// `CFBundleShortVersionString`, if any.
    public var shortVersion: String?
    /// The installed bundle (in the bundle container).
    public var bundle: AppBundle
    /// The `.app` directory: `Containers/Bundle/Application/<UUID>/<Name>.app`.
    public var bundleContainer: URL
    /// The data container (the app's home): `Containers/Data/Application/<UUID>`.
    public var dataContainerURL: URL
    /// App group identifier → its container, for the app's groups.
    public var groupContainers: [String: URL]
    /// What the app is entitled to (keychain and app groups).
    public var entitlements: AppEntitlements
    /// When the app was first installed (kept across updates).
    public var installed: Date
    /// The device's system root, for the global preferences domain.
    let systemRoot: URL

    /// The data container, opened.
    public func dataContainer() throws -> AppContainer {
        do { return try AppContainer(existingAt: dataContainerURL, bundleURL: bundleContainer) } catch {
            throw DeviceError.wrapping(error, bundleID: bundleID, path: dataContainerURL.path, "open the data container")
        }
    }

    /// The app's search paths: the user domain in its container, the other
    /// domains in the device's read-only system root.
    public func searchPaths() throws -> SearchPaths {
        SearchPaths(container: try dataContainer(), systemRoot: systemRoot)
    }

    /// The app's `NSUserDefaults`: `Library/Preferences/<bundle id>.plist` in
    /// its container, with the device's global domain
    /// (`System/Library/Preferences/.GlobalPreferences.plist`, read-only to apps).
    public func preferences(configuration: Preferences.Configuration = .init()) throws -> Preferences {
        let file = dataContainerURL.appendingPathComponent(ContainerDirectory.preferences.relativePath + "/\(bundleID).plist")
        let global = systemRoot.appendingPathComponent("Library/Preferences/\(Preferences.globalDomainFileName)")
        do {
            // Through the container's file API: confined, counted in its
            // bytesWritten, locked with its lock file.
            return try Preferences(container: try dataContainer(), bundleIdentifier: bundleID, globalDomainFile: global,
                                   configuration: configuration)
        } catch {
            throw DeviceError.wrapping(error, bundleID: bundleID, path: file.path, "open the preferences")
        }
    }

    /// The keychain as this app sees it on `device`: its access groups only.
    public func keychainClient(on device: Device) -> KeychainClient {
        device.keychain.client(for: entitlements.keychain)
    }
}
