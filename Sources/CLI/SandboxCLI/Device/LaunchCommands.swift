import ArgumentParser
import Device
import Foundation
import Launch
import TerminalText
import NetworkConditions

/// `sandbox launch [--wait] <bundle id> [args…]`: starts an installed app's
/// executable inside its sandbox, as `simctl launch` does.
struct LaunchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "launch",
        abstract: "Launch an installed app's executable, confined to its container; prints '<bundle id>: <pid>'.",
        discussion: """
            The process gets HOME, TMPDIR, XDG_* and SANDBOX_CONTAINER pointing into the app's data container. \
            Where the kernel has Landlock it can read the system and its bundle and write only its Documents, \
            Library and tmp; elsewhere it runs unconfined after a warning. Options go before the bundle \
            identifier; everything after it is passed to the app. The bundle must still match its seal.

            The launch honours the network conditions (sandbox network): an app whose Info.plist sets \
            UIRequiresPersistentWiFi to true holds the Wi-Fi power timer while it runs, and the \
            airplane-mode alert is shown (on standard error; airplaneModeAlert with --json) when such \
            an app launches in airplane mode and Wi-Fi was not turned back on.


            With --watchdog the launch is timed as iOS's watchdog does: the app says it finished launching \
            by creating the file $SANDBOX_LAUNCH_FINISHED names; past the limit it is killed and the kill \
            is reported (sandbox launch exits 1 with the report's line).

            Examples:
              sandbox launch com.example.notes
              sandbox launch --wait --device ci com.example.notes --verbose
              sandbox launch --json com.example.maps
              sandbox launch --watchdog 20 com.example.notes
            """)

    @Flag(help: "Wait for the app to exit; exit with its status (128 + signal if a signal ended it).")
    var wait = false

    @Option(help: ArgumentHelp("automatic (confine where the kernel can), required (refuse to run unconfined) or off.",
                               valueName: "mode"))
    var confinement: ConfinementChoice = .automatic

    @Option(help: ArgumentHelp("Kill the app (SIGKILL, reported as 0x8badf00d) unless it creates the file "
                               + "$SANDBOX_LAUNCH_FINISHED names within this many seconds, or the device's limit "
                               + "(20 s unless set) with 'device'.", valueName: "seconds|device"))
    var watchdog: WatchdogChoice?

    @OptionGroup var options: DeviceOptions

    @Argument(help: ArgumentHelp("The app's bundle identifier.", valueName: "bundle-id"))
    var bundleID: String

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("Arguments for the app.", valueName: "args"))
    var arguments: [String] = []

    func run() throws {
        var status: Int32 = 0
        try CommandRunner.run {
            let device = try options.open()
            var launchOptions = ProcessLaunchOptions()
            launchOptions.confinement = confinement.mode
            launchOptions.watchdog = watchdog?.watchdog ?? .off
            let app = try device.launch(bundleID, arguments: arguments, options: launchOptions)
            if !options.json { try CommandRunner.print("\(bundleID): \(app.pid)\n") }
            if app.network.airplaneModeAlert {
                let name = (try? device.app(bundleID).bundle.info.displayName) ?? nil
                FileOutput.writeToStandardError("Alert: \(NetworkLaunchReport.alertText(appName: TerminalText.escape(name ?? bundleID)))\n")
            }
            var exit: ExitStatus?
            if wait {
                exit = try app.process.wait()
                device.removeRunRecord(bundleID)
                status = exit?.shellStatus ?? 0
            }
            if options.json {
                try options.output(json: LaunchSummary(bundleID: bundleID, pid: app.pid, confined: app.confined,
                                                       airplaneModeAlert: app.network.airplaneModeAlert,
                                                       network: app.network, exitStatus: exit?.shellStatus), text: "")
            }
        }
        if status != 0 { throw ExitCode(status) }
    }
}

/// `sandbox terminate <bundle id>`: the will-terminate transition.
struct TerminateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "terminate",
        abstract: "Terminate a running app: SIGTERM (its will-terminate), then SIGKILL after the timeout.")

    @Option(help: ArgumentHelp("Seconds to wait after SIGTERM before SIGKILL.", valueName: "seconds"))
    var timeout: Double = ProcessLaunchOptions.defaultTerminationTimeout

    @OptionGroup var options: DeviceOptions

    @Argument(help: ArgumentHelp("The app's bundle identifier.", valueName: "bundle-id"))
    var bundleID: String

    func run() throws {
        try CommandRunner.run {
            let device = try options.open()
            _ = try device.app(bundleID)
            let outcome = try device.terminate(bundleID, timeout: timeout)
            if outcome == .notRunning {
                throw DeviceError(.invalidTransition, bundleID: bundleID, "\(bundleID) is not running: found nothing to terminate")
            }
            try options.output(json: ["bundleID": bundleID, "outcome": outcome.rawValue],
                               text: outcome == .killed ? "\(bundleID): killed after \(timeout) s" : "")
        }
    }
}

/// `--confinement`'s values.
enum ConfinementChoice: String, ExpressibleByArgument, CaseIterable {
    case automatic, required, off

    var mode: ConfinementMode {
        switch self {
        case .automatic: return .automatic
        case .required: return .required
        case .off: return .disabled
        }
    }
}

/// `sandbox launch --json`'s output.
struct LaunchSummary: Encodable {
    var bundleID: String
    var pid: Int32
    var confined: Bool
    /// Whether the system showed the airplane-mode alert at launch.
    var airplaneModeAlert: Bool
    /// The radio conditions at launch: the alert, the Wi-Fi timer hold, the route.
    var network: NetworkLaunchReport
    /// The exit status with `--wait` (128 + signal for a signal).
    var exitStatus: Int32?
}

/// `--watchdog`: seconds, or `device` for the device's limit.
struct WatchdogChoice: ExpressibleByArgument {
    let watchdog: ProcessWatchdog

    init?(argument: String) {
        if argument == "device" { watchdog = .device; return }
        guard let seconds = Double(argument), seconds > 0, seconds.isFinite else { return nil }
        watchdog = .seconds(seconds)
    }
}
