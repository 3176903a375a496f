import ArgumentParser
import Device
import Foundation

/// `sandbox device watchdog [seconds|default]`: the launch watchdog's limit.
struct DeviceWatchdogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watchdog",
        abstract: "Show or set the launch watchdog's limit: an app that takes longer to launch is killed (0x8badf00d).",
        discussion: """
            In-process apps are timed from didFinishLaunching's start to its return; processes started by \
            'sandbox launch --watchdog device' until they create the file $SANDBOX_LAUNCH_FINISHED names. \
            The limit is 20 seconds unless set; 'default' goes back to it.

            Examples:
              sandbox device watchdog
              sandbox device watchdog 0.5 --device ci
              sandbox device watchdog default --json
            """)

    @Argument(help: ArgumentHelp("The new limit in seconds, or 'default' (20 s); omitted: show the limit.", valueName: "seconds|default"))
    var limit: String?

    @OptionGroup var options: DeviceOptions

    func validate() throws {
        guard let limit, limit != "default" else { return }
        guard let seconds = Double(limit), seconds > 0, seconds.isFinite else {
            throw ValidationError("the limit must be a positive number of seconds or 'default', not '\(limit)'")
        }
    }

    func run() throws {
        try CommandRunner.run {
            let device = try options.open()
            if let limit { try device.setLaunchWatchdogLimit(limit == "default" ? nil : Double(limit)) }
            let seconds = device.launchWatchdogLimit
            try options.output(json: ["launchWatchdogLimit": seconds],
                               text: "launch watchdog: \(String(format: "%g", seconds)) s")
        }
    }
}
