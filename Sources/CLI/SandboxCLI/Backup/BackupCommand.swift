import ArgumentParser
import Foundation

/// `sandbox backup`: list, inspect, verify and extract backups in iOS's
/// format (ours and those made by iTunes or Finder), and create and restore
/// them for a device.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "List, inspect, verify, extract, create and restore iOS-format device backups.",
        discussion: """
            Backups are directories in iOS's MobileBackup2 format (Info.plist, Manifest.plist, \
            Status.plist, Manifest.db and xx/<fileID> payloads), one per device UDID. Sandbox keeps \
            them under $SANDBOX_HOME/backups (default ~/.local/share/sandbox/backups; /var/lib/sandbox/backups as root); every command \
            also takes any backup directory, including one made by iTunes or Finder.

            Examples:
              sandbox backup list
              sandbox backup info <udid> --password secret
              sandbox backup verify ~/Backups/<udid>
              sandbox backup extract <udid> com.example.notes out/
              sandbox backup extract <udid> HomeDomain out/
              sandbox backup create --device phone --password secret
              sandbox backup restore <udid> --to-device other-phone --password secret

            A damaged payload (missing, truncated, or not matching its recorded size or digest) is \
            reported per file and never written out. Progress bars appear on a terminal only; \
            --json output is stable. Exit status: 0 on success; 1 on failure or when any payload is \
            damaged; 64 for a usage error.
            """,
        subcommands: [BackupListCommand.self, BackupInfoCommand.self, BackupVerifyCommand.self, BackupExtractCommand.self,
                      BackupCreateCommand.self, BackupRestoreCommand.self]
    )
}
