import ArgumentParser
import Device
import Foundation
import MobileBackup

/// `sandbox backup list`: the backups in a directory.
struct BackupListCommand: ParsableCommand, JSONOrTextOutput {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the backups in a directory (default: $SANDBOX_HOME/backups).")

    @Argument(help: ArgumentHelp("The directory holding backups, one per UDID.", valueName: "dir"))
    var directory: String?

    @Flag(help: "Print JSON (stable, sorted keys) instead of text.")
    var json = false

    func run() throws {
        try CommandRunner.run {
            let root = directory.map { URL(fileURLWithPath: $0) } ?? SandboxHome().backups
            var found = BackupLocation.backups(in: root)
            if BackupLocation.isBackup(root) { found.insert(root.standardizedFileURL, at: 0) }
            let summaries = try found.map { BackupJSON.Summary(try BackupInfo.read(directory: $0), path: $0) }
            try output(json: ["backups": summaries], text: Self.text(summaries, root: root))
        }
    }

    /// A backup a line and its path below it, or a line saying there is none.
    static func text(_ summaries: [BackupJSON.Summary], root: URL) -> String {
        if summaries.isEmpty { return "No backups in \(root.path)\n" }
        var text = ""
        for summary in summaries {
            let date = summary.date.map { ISO8601DateFormatter().string(from: $0) } ?? "unknown date"
            let lock = summary.encrypted ? "encrypted" : "plain"
            text += "\(summary.device.udid)  \(summary.device.name)  \(date)  \(lock)  \(summary.applications.count) apps\n"
            text += "    \(summary.path)\n"
        }
        return text
    }
}
