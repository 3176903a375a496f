import ArgumentParser

/// `sandbox cloud …`: iCloud backup, the service and the device side.
struct CloudCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cloud",
        abstract: "iCloud backup: run the service, sign a device in, back up, restore.",
        discussion: """
            The service keeps encrypted chunks and a ledger of accounts, quotas and snapshots; it \
            never sees a password or a plaintext byte. Without options it runs on the embedded \
            default (a directory and SQLite); with --stack on OpenStack Swift and PostgreSQL.

            Examples:
              sandbox cloud serve --port 8417
              sandbox cloud signin --service http://127.0.0.1:8417 --account ada@example.com --create
              sandbox cloud backup --now
              sandbox cloud apps com.example.Possessions --off
              sandbox cloud restore --device iPad
            """,
        subcommands: [CloudServeCommand.self, CloudSignInCommand.self, CloudBackupCommand.self, CloudRestoreCommand.self,
                      CloudStatusCommand.self, CloudAppsCommand.self])
}
