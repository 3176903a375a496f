import ArgumentParser

/// `sandbox device`: create, list, inspect, erase, lock and unlock devices.
struct DeviceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Create, list, inspect, erase, lock, unlock and boot simulated devices, and set their launch watchdog.",
        discussion: """
            A device is a directory: its identity, keychain, app containers and read-only system \
            domains. Named devices live in $SANDBOX_HOME/devices/<name> (else \
            ~/.local/share/sandbox/devices/<name>, or /var/lib/sandbox/devices/<name> as root); --device \
            also takes a path. The app commands \
            (install, update, uninstall, listapps, container, purge) act on --device, "default" \
            unless given.

            Examples:
              sandbox device create ci --capacity 8G
              sandbox install Build/Notes.app --device ci
              sandbox container com.example.notes documents --device ci
              sandbox device info --device ci --json

            --json output is stable (sorted keys, ISO 8601 dates). Exit status: 0 on success, 1 on \
            failure, 64 for a usage error.
            """,
        subcommands: [DeviceCreateCommand.self, DeviceListCommand.self, DeviceInfoCommand.self, DeviceEraseCommand.self,
                      DeviceLockCommand.self, DeviceUnlockCommand.self, DeviceBootCommand.self, DeviceWatchdogCommand.self]
    )
}
