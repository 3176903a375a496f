import Foundation
import Launch
import NetworkConditions

/// How ``Device/launch(_:arguments:environment:wait:options:)`` starts an
/// app's executable, beyond its arguments.
public struct ProcessLaunchOptions: Sendable {
    /// Confine where the kernel can (the default), require it, or turn it off.
    public var confinement: ConfinementMode = .automatic
    /// Where the app's standard input goes (the launcher's by default).
    public var standardInput: LaunchIO = .inherit
    /// Where the app's standard output goes.
    public var standardOutput: LaunchIO = .inherit
    /// Where the app's standard error goes.
    public var standardError: LaunchIO = .inherit
    /// The user the app runs as when the launcher is root (iOS's `mobile`,
    /// 501:501, by default); its data directories are handed to it.
    public var user: AppUser = .mobile
    /// Whether an unconfined launch warns on this process's standard error.
    public var printsWarnings = true
    /// The launch watchdog for the process (off by default: an executable
    /// that does not know how to say it finished launching would always be
    /// killed). See ``ProcessWatchdog``.
    public var watchdog: ProcessWatchdog = .off
    /// How long ``Device/terminate(_:timeout:)`` waits after SIGTERM before SIGKILL.
    public static let defaultTerminationTimeout: TimeInterval = 5

    /// The defaults.
    public init() {}
}

/// Whether ``Device/launch(_:arguments:environment:wait:options:)`` times
/// the app's launch. With a watchdog, the app says it finished launching by
/// creating the file that its environment's ``launchFinishedVariable``
/// names (in its `tmp`, which it may write even when confined); `launch`
/// waits for that file, and past the limit kills the process (SIGKILL),
/// reports the kill (``Device/lastLaunchReport(_:)``: `watchdog timeout`,
/// `0x8badf00d`) and throws ``DeviceErrorCode/watchdogTimeout``.
public enum ProcessWatchdog: Sendable, Hashable {
    /// No watchdog: `launch` returns once the process runs.
    case off
    /// The device's limit (``Device/launchWatchdogLimit``, 20 s by default).
    case device
    /// This many seconds.
    case seconds(TimeInterval)

    /// The environment variable holding the path of the file the app
    /// creates when it has finished launching.
    public static let launchFinishedVariable = "SANDBOX_LAUNCH_FINISHED"
}

/// An app's executable started by ``Device/launch(_:arguments:environment:wait:options:)``.
public struct AppProcess: Sendable {
    /// The app.
    public var bundleID: String
    /// The process: its pid, confinement, and `wait` / `terminate`.
    public var process: LaunchedProcess
    /// What the radio conditions meant for the launch: the airplane-mode
    /// alert, the Wi-Fi timer hold, the route.
    public var network: NetworkLaunchReport
    /// How it ended, when the launch waited for it.
    public var exitStatus: ExitStatus?

    /// The process id (what `sandbox launch` prints, as simctl does).
    public var pid: Int32 { process.pid }
    /// Whether the kernel confines the process.
    public var confined: Bool { process.confinement.confined }
}

/// What ``Device/terminate(_:timeout:)`` did.
public enum TerminationOutcome: String, Sendable, Hashable, Codable {
    /// The app was not running (a stale run record, if any, was removed).
    case notRunning
    /// The app ended after the will-terminate request (SIGTERM, or the
    /// in-process `applicationWillTerminate`).
    case terminated
    /// The app ignored SIGTERM past the timeout and was killed (SIGKILL).
    case killed
}
