import ArgumentParser

/// The `sandbox` command: the iOS app data-storage system on the command line.
///
/// Each storage concern is a noun-first subcommand (`sandbox plist …`); the
/// executable target only calls ``main(_:)``, so the commands live in this
/// library where tests can reach them.
public struct SandboxCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "The iOS app data-storage system: containers, property lists, backups.",
        version: "0.1.0",
        subcommands: [PlistCommand.self, ArchiveCommand.self, KeychainCommand.self, DefaultsCommand.self,
                      DeviceCommand.self, InstallCommand.self, UpdateCommand.self, UninstallCommand.self,
                      ListAppsCommand.self, ContainerCommand.self, PurgeCommand.self, MigrateCommand.self,
                      LaunchCommand.self, TerminateCommand.self, NetworkCommand.self, BackupCommand.self, DemoCommand.self]
    )

    /// Creates the command; ArgumentParser fills it in from the arguments.
    public init() {}
}
