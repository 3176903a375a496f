import ArgumentParser
import Device

/// `sandbox network set`: flips switches, locks, advances the clock.
struct NetworkSetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Set Wi-Fi, cellular data, airplane mode or the lock, or advance the network clock; prints the status.",
        discussion: """
            The switches are applied in the order airplane mode, Wi-Fi, cellular, lock, and then the \
            clock advances, so `--wifi on --advance 1800` leaves Wi-Fi off by the power timer (unless \
            a running app requires persistent Wi-Fi). --wifi on while in airplane mode turns Wi-Fi back \
            on inside it. --lock locks or unlocks the device itself (as `sandbox device lock` does).

            Examples:
              sandbox network set --airplane on
              sandbox network set --airplane on --wifi on --device ci
              sandbox network set --cellular on --wifi off
              sandbox network set --lock on
              sandbox network set --local-network on
              sandbox network set --advance 1800 --json
            """)

    @Option(help: ArgumentHelp("Turn Wi-Fi on or off.", valueName: "on|off"))
    var wifi: Toggle?

    @Option(help: ArgumentHelp("Turn cellular data on or off.", valueName: "on|off"))
    var cellular: Toggle?

    @Option(help: ArgumentHelp("Turn airplane mode on or off.", valueName: "on|off"))
    var airplane: Toggle?

    @Option(help: ArgumentHelp("Lock or unlock the device.", valueName: "on|off"))
    var lock: Toggle?

    @Option(help: ArgumentHelp("Connect the device to power or disconnect it (iCloud backup runs on power).", valueName: "on|off"))
    var power: Toggle?

    @Option(help: ArgumentHelp("Let downloads reach private, link-local and other special-purpose addresses, or refuse them (the default).",
                               valueName: "on|off"))
    var localNetwork: Toggle?

    @Option(help: ArgumentHelp("Move the network clock forward by this many seconds (30 minutes: 1800).",
                               valueName: "seconds"))
    var advance: Double?

    @OptionGroup var options: DeviceOptions

    func validate() throws {
        if wifi == nil, cellular == nil, airplane == nil, lock == nil, power == nil, localNetwork == nil, advance == nil {
            throw ValidationError("Nothing to set: give --wifi, --cellular, --airplane, --lock, --power, --local-network or --advance.")
        }
        if let advance, !(advance.isFinite && advance >= 0) {
            throw ValidationError("--advance takes a number of seconds, 0 or more (got \(advance)).")
        }
    }

    func run() throws {
        try CommandRunner.run {
            let network = try options.open().updateNetwork { network in
                if let airplane { network.setAirplaneMode(airplane.isOn) }
                if let wifi { network.setWiFi(wifi.isOn) }
                if let cellular { network.setCellular(cellular.isOn) }
                if let lock { network.setLocked(lock.isOn) }
                if let power { network.setPower(power.isOn) }
                if let localNetwork { network.setLocalNetworkAllowed(localNetwork.isOn) }
                if let advance { try network.advance(by: advance) }
                return network
            }
            let status = NetworkStatus(network)
            try options.output(json: status, text: status.text)
        }
    }
}

/// An `on|off` option value.
enum Toggle: String, ExpressibleByArgument, CaseIterable {
    case on, off

    var isOn: Bool { self == .on }
}
