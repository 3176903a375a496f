import ArgumentParser

/// `sandbox network`: the device's radio conditions.
struct NetworkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "network",
        abstract: "Show or set a device's radio conditions: Wi-Fi, cellular data, airplane mode, lock, the network clock.",
        discussion: """
            The conditions follow iOS's rules: the Wi-Fi hardware goes off 30 minutes after its timer \
            was armed unless a running app's Info.plist sets UIRequiresPersistentWiFi to the Boolean \
            true; a locked device has no Wi-Fi; airplane mode turns the radios off, and Wi-Fi may be \
            turned back on inside it. `sandbox launch` shows the airplane-mode alert when the app \
            requires persistent Wi-Fi, the device is in airplane mode and Wi-Fi was not turned back on. \
            The network clock moves only with --advance, so 30 minutes pass when you say so.

            Examples:
              sandbox network status
              sandbox network set --airplane on --device ci
              sandbox network set --wifi on            # Wi-Fi back on inside airplane mode
              sandbox network set --advance 1800 --json
            """,
        subcommands: [NetworkStatusCommand.self, NetworkSetCommand.self]
    )
}
