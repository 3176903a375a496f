import ArgumentParser
import Device
import Foundation
import MobileBackup

/// `sandbox backup list`: the backups in a directory.
///
/// One backup that cannot be read (a damaged property list, a link or a
/// FIFO where a backup's file belongs, no permission) does not hide the
/// others: each is listed, the bad ones after the good with the reason, in
/// text and JSON (`unreadable`). The exit status stays 0 when the directory
/// itself was read, as `plutil -p` and `simctl list` report and go on: the
/// listing is complete (every backup is in it, good or bad), and a script
/// that lists backups under `set -e` should not stop because someone else's
/// backup is damaged; `backup verify` and `backup info` are the commands
/// that fail on a bad backup.
struct BackupListCommand: ParsableCommand, JSONOrTextOutput {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the backups in a directory (default: $SANDBOX_HOME/backups).",
        discussion: "A backup that cannot be read is listed as unreadable, with the reason; the others are listed as usual.")

    @Argument(help: ArgumentHelp("The directory holding backups, one per UDID.", valueName: "dir"))
    var directory: String?

    @Flag(help: "Print JSON (stable, sorted keys) instead of text.")
    var json = false

    func run() throws {
        try CommandRunner.run {
            let root = directory.map { URL(fileURLWithPath: $0) } ?? SandboxHome().backups
            var found = try BackupLocation.backups(in: root)
            if BackupLocation.isBackup(root) { found.insert(root.standardizedFileURL, at: 0) }
            let listing = BackupJSON.Listing(found)
            try output(json: listing, text: Self.text(listing, root: root))
        }
    }

    /// A backup a line and its path below it, then each unreadable one
    /// with its reason, or a line saying there is none.
    static func text(_ listing: BackupJSON.Listing, root: URL) -> String {
        if listing.backups.isEmpty && listing.unreadable.isEmpty { return "No backups in \(root.path)\n" }
        var text = ""
        for summary in listing.backups {
            let date = summary.date.map { ISO8601DateFormatter().string(from: $0) } ?? "unknown date"
            let lock = summary.encrypted ? "encrypted" : "plain"
            text += "\(summary.device.udid)  \(summary.device.name)  \(date)  \(lock)  \(summary.applications.count) apps\n"
            text += "    \(summary.path)\n"
        }
        for bad in listing.unreadable {
            text += "unreadable  \(bad.code): \(bad.message)\n"
            text += "    \(bad.path)\n"
        }
        return text
    }
}

extension BackupJSON {
    /// `backup list`: the backups read, and those that could not be, with why.
    struct Listing: Encodable {
        var backups: [Summary]
        var unreadable: [Unreadable]
    }

    /// A backup `backup list` found but could not read.
    struct Unreadable: Encodable {
        var path: String
        /// The error's code (``MobileBackupErrorCode`` raw value, e.g. `notARegularFile`).
        var code: String
        var message: String
    }
}

extension BackupJSON.Listing {
    /// Reads each backup's property lists; one that fails is kept with its error.
    init(_ directories: [URL]) {
        var backups: [BackupJSON.Summary] = []
        var unreadable: [BackupJSON.Unreadable] = []
        for directory in directories {
            do {
                backups.append(BackupJSON.Summary(try BackupInfo.read(directory: directory), path: directory))
            } catch let error as MobileBackupError {
                unreadable.append(BackupJSON.Unreadable(path: directory.path, code: error.code.rawValue, message: error.message))
            } catch {
                unreadable.append(BackupJSON.Unreadable(path: directory.path, code: "ioFailed", message: "\(error)"))
            }
        }
        self.init(backups: backups, unreadable: unreadable)
    }
}
