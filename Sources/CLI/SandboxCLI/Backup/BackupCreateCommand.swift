import ArgumentParser
import Device
import Foundation
import MobileBackup

/// `sandbox backup create`: backs a device up, incrementally.
struct BackupCreateCommand: ParsableCommand, JSONOrTextOutput {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Back a device up into <dir>/<UDID> (default $SANDBOX_HOME/backups), incrementally.",
        discussion: """
            Each app's Documents and Library (not Library/Caches, tmp, the bundle or items flagged \
            do-not-back-up), each app-group container and the keychain export. With --password the \
            backup is encrypted and its keychain can be restored onto another device; without one, \
            keychain items come back only on this device. ThisDeviceOnly items never leave it.
            """)

    @OptionGroup var device: DeviceSelection<DefaultDevice>

    @Option(help: ArgumentHelp("Encrypt the backup with this password.", valueName: "password"))
    var password: String?

    @Option(name: .customLong("to"), help: ArgumentHelp("The directory holding backups.", valueName: "dir"))
    var directory: String?

    @Flag(help: "Print JSON (stable, sorted keys) instead of text.")
    var json = false

    func run() throws {
        try CommandRunner.run {
            let target = try device.open()
            let bar = ByteProgressBar("Backing up", total: 1, quiet: json)
            let summary = try target.backUp(to: directory.map { URL(fileURLWithPath: $0) } ?? SandboxHome().backups,
                                            password: password) { bar.set(fraction: $0.completedBytes, of: $0.totalBytes) }
            bar.finish()
            let kind = summary.isIncremental ? "incremental" : "full"
            try output(json: BackupJSON.Created(summary), text: """
                Backed up \(target.identity.name) (\(target.identity.udid)) to \(summary.directory.path)
                \(kind), \(summary.isEncrypted ? "encrypted" : "not encrypted"): \(summary.files) files, \
                \(summary.directories) directories, \(summary.symbolicLinks) links; \(summary.payloadsCopied) copied \
                (\(summary.bytesCopied) bytes), \(summary.payloadsReused) unchanged; \(String(format: "%.2f", summary.seconds)) s

                """)
        }
    }
}
