import Foundation
import PropertyList

/// What an in-process app implements to take part in its lifecycle, as
/// `UIApplicationDelegate`. Every method has an empty default, so an app
/// implements only what it needs.
public protocol AppDelegate: AnyObject {
    /// The app finished launching (state inactive). Return false if it
    /// could not handle the launch's URL; the launch goes on either way.
    func application(_ app: AppContext, didFinishLaunchingWithOptions options: LaunchOptions) throws -> Bool
    /// The app became active (receives events).
    func applicationDidBecomeActive(_ app: AppContext) throws
    /// The app is about to stop receiving events (a call, the switcher).
    func applicationWillResignActive(_ app: AppContext) throws
    /// The app is in the background; save data now, it may be suspended
    /// and killed without further notice. Preferences are flushed after it.
    func applicationDidEnterBackground(_ app: AppContext) throws
    /// The app is about to come back to the foreground.
    func applicationWillEnterForeground(_ app: AppContext) throws
    /// The app is about to terminate. Preferences are flushed after it.
    func applicationWillTerminate(_ app: AppContext) throws
    /// The state to preserve, asked at background and at terminate; nil
    /// keeps what was saved before. Handed back at the next launch.
    func applicationStateForPreservation(_ app: AppContext) throws -> PropertyListValue?
    /// Memory is low; free what can be re-created.
    func applicationDidReceiveMemoryWarning(_ app: AppContext) throws
    /// The disk is low (below the device's warning threshold); delete
    /// caches and temporary files that can be re-created.
    func applicationDidReceiveLowDiskWarning(_ app: AppContext, space: DiskSpace) throws
}

/// The defaults: an app implements only the callbacks it needs.
extension AppDelegate {
    /// Accepts the launch (returns true).
    public func application(_ app: AppContext, didFinishLaunchingWithOptions options: LaunchOptions) throws -> Bool { true }
    /// Does nothing.
    public func applicationDidBecomeActive(_ app: AppContext) throws {}
    /// Does nothing.
    public func applicationWillResignActive(_ app: AppContext) throws {}
    /// Does nothing.
    public func applicationDidEnterBackground(_ app: AppContext) throws {}
    /// Does nothing.
    public func applicationWillEnterForeground(_ app: AppContext) throws {}
    /// Does nothing.
    public func applicationWillTerminate(_ app: AppContext) throws {}
    /// Preserves nothing (returns nil).
    public func applicationStateForPreservation(_ app: AppContext) throws -> PropertyListValue? { nil }
    /// Does nothing.
    public func applicationDidReceiveMemoryWarning(_ app: AppContext) throws {}
    /// Does nothing.
    public func applicationDidReceiveLowDiskWarning(_ app: AppContext, space: DiskSpace) throws {}
}

/// What a launch hands the app.
public struct LaunchOptions: Sendable {
    /// The launch arguments; `-key value` pairs form the preferences'
    /// argument domain.
    public var arguments: [String]
    /// A URL the app was opened with.
    public var url: URL?
    /// The state the app saved at its last background or terminate
    /// (filled in by ``AppRun/launch(options:)`` when not given).
    public var restoredState: PropertyListValue?
    /// The launch watchdog's limit for this launch, in seconds; nil uses
    /// the device's (``Device/launchWatchdogLimit``, 20 s by default).
    public var watchdogLimit: TimeInterval?

    /// Creates options.
    public init(arguments: [String] = [], url: URL? = nil, restoredState: PropertyListValue? = nil,
                watchdogLimit: TimeInterval? = nil) {
        self.arguments = arguments
        self.url = url
        self.restoredState = restoredState
        self.watchdogLimit = watchdogLimit
    }
}
