import ArgumentParser

/// The `sandbox` command: the iOS app data-storage system on the command line.
///
/// Each storage concern is a noun-first subcommand (`sandbox plist …`); the
/// executable target only calls ``main(_:)``, so the commands live in this
/// library where tests can reach them.
public struct SandboxCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "The iOS app data-storage system: containers, property lists, backups.",
        version: "0.1.0",
        subcommands: [PlistCommand.self, ArchiveCommand.self, KeychainCommand.self, DefaultsCommand.self,
                      DeviceCommand.self, InstallCommand.self, UpdateCommand.self, UninstallCommand.self,
                      ListAppsCommand.self, ContainerCommand.self, PurgeCommand.self, MigrateCommand.self,
                      LaunchCommand.self, TerminateCommand.self, NetworkCommand.self, CacheCommand.self, BackupCommand.self, StoreCommand.self, CloudCommand.self,
                      AuditCommand.self, DemoCommand.self]
    )

    /// Creates the command; ArgumentParser fills it in from the arguments.
    public init() {}
}

extension SandboxCommand {
    /// Parses the process's arguments and runs the command, awaiting the
    /// asynchronous ones (`cache refetch`, `demo`). The executable calls
    /// this: at top level, `SandboxCommand.main()` would pick
    /// ParsableCommand's synchronous entry point, which refuses an
    /// asynchronous root command.
    public static func runFromCommandLine() async {
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
