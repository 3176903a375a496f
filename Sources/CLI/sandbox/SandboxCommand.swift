import ArgumentParser

/// The `sandbox` command: the iOS app data-storage system on the command line.
@main
struct SandboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "The iOS app data-storage system: containers, property lists, backups.",
        version: "0.1.0",
        subcommands: []
    )
}
