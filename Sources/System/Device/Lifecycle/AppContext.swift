import Container
import Keychain
import Preferences

/// Everything an in-process app reaches, as `UIApplication` and its
/// singletons give it: its container and search paths, defaults, keychain,
/// bundle, state restoration and the device.
public struct AppContext: Sendable {
    /// The app.
    public let bundleID: String
    /// The app's data container (`NSHomeDirectory()`).
    public let container: AppContainer
    /// `NSSearchPathForDirectoriesInDomains` as the app sees it.
    public let searchPaths: SearchPaths
    /// `UserDefaults.standard`.
    public let preferences: Preferences
    /// The keychain, confined to the app's access groups.
    public let keychain: KeychainClient
    /// `Bundle.main`.
    public let bundle: AppBundle
    /// The state-preservation helper.
    public let stateRestoration: StateRestoration
    /// The installed app (its containers and entitlements).
    public let app: InstalledApp
    /// The device the app runs on.
    public let device: Device
    /// Set when the system kills the app (the launch watchdog); long work
    /// checks it and stops.
    public let termination: AppTermination
}
