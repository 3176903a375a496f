import ArgumentParser
import Device

/// `sandbox network status`: the conditions and the route now.
struct NetworkStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the radio conditions, the Wi-Fi power timer and the route a transfer would take now.",
        discussion: """
            Examples:
              sandbox network status
              sandbox network status --device ci --json
            """)

    @OptionGroup var options: DeviceOptions

    func run() throws {
        try CommandRunner.run {
            let status = NetworkStatus(try options.open().network)
            try options.output(json: status, text: status.text)
        }
    }
}
