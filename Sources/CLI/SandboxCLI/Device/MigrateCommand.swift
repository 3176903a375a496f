import ArgumentParser
import Container
import Device
import Foundation

/// `sandbox migrate <bundle id> --to caches|support`: moves an app's
/// Documents out of the backup, resumably, with progress.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Move an app's Documents to Library/Caches, or to Library/Application Support marked do-not-back-up.",
        discussion: """
            Every file, link (moved as a link, never followed) and folder under Documents is planned first, \
            then renamed into place one by one, with a journal in Library/Application Support, so an \
            interrupted move (Ctrl-C, a kill, a power cut) resumes where it stopped when run again and never \
            loses or duplicates a file. A name already taken at the destination is refused before anything \
            moves. On a terminal a progress bar is drawn on standard error. --status shows an interrupted \
            move without running it.

            Examples:
              sandbox migrate com.example.notes --to support
              sandbox migrate com.example.notes --to caches --device ci --json
              sandbox migrate com.example.notes --status
            """)

    @Argument(help: ArgumentHelp("The app's bundle identifier.", valueName: "bundle-id"))
    var bundleID: String

    @Option(help: ArgumentHelp("caches (Library/Caches) or support (Library/Application Support, do-not-back-up). "
                               + "An interrupted move finishes where it was going.", valueName: "destination"))
    var to: MigrationDestination = .caches

    @Flag(help: "Only show where an interrupted move stands.")
    var status = false

    @OptionGroup var options: DeviceOptions

    func run() throws {
        try CommandRunner.run {
            let device = try options.open()
            if status {
                let pending = try device.pendingDocumentsMigration(of: bundleID)
                try options.output(json: MigrationStatus(bundleID: bundleID, pending: pending),
                                   text: pending.map { "\(bundleID): an interrupted move has done \($0.completedItems) of \($0.totalItems) items" }
                                       ?? "\(bundleID): no move pending")
                return
            }
            let bar = ByteProgressBar("Migrating", total: 1, quiet: options.json)
            let report = try device.migrateDocuments(of: bundleID, to: to) { progress in
                bar.set(fraction: Int64(clamping: progress.completedBytes), of: Int64(clamping: max(progress.totalBytes, 1)))
            }
            bar.finish()
            let place = report.destination.directory.relativePath
            var text = "Moved \(report.moved) items (\(ByteText.format(report.totalBytes))) from Documents to \(place)"
                + (report.destination.excludesFromBackup ? ", marked do-not-back-up" : "")
                + String(format: " in %.2f s", report.duration)
            if report.resumed { text += "\nResumed an interrupted move: \(report.alreadyMoved) items were already in place" }
            if report.vanished > 0 { text += "\n\(report.vanished) planned items had been deleted meanwhile" }
            try options.output(json: report, text: text)
        }
    }
}

/// `--status --json`: where an interrupted move stands.
private struct MigrationStatus: Encodable {
    var bundleID: String
    var pending: MigrationProgress?
}

extension MigrationDestination: ExpressibleByArgument {}
