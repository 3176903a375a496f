import CloudBackup
import CloudProtocol
import FileSystem
import Foundation

/// The text the cloud commands print for people.
enum CloudText {
    /// Bytes for people: kB below a megabyte, MB above.
    static func megabytes(_ bytes: Int64) -> String {
        bytes < 1_000_000 ? String(format: "%.1f kB", Double(bytes) / 1e3) : String(format: "%.1f MB", Double(bytes) / 1e6)
    }

    static func backup(_ report: CloudBackupReport) -> String {
        var lines = ["Snapshot \(report.snapshot.snapshotID): \(report.files) files, \(megabytes(report.bytes)) in \(report.chunks) chunks"]
        lines.append("Sent \(report.chunksSent) chunks (\(megabytes(report.bytesSent))); \(report.chunksAlreadyStored) already stored; "
                     + "\(report.filesUnchanged) files unchanged")
        if !report.appsOff.isEmpty { lines.append("Left out (backup off): \(report.appsOff.joined(separator: ", "))") }
        lines.append("iCloud storage: \(megabytes(report.usedBytes)) of \(megabytes(report.quotaBytes)) used")
        lines.append(String(format: "Took %.2f s", report.seconds))
        return lines.joined(separator: "\n")
    }

    static func restore(_ report: CloudRestoreReport) -> String {
        var lines = ["Restored snapshot \(report.snapshot.snapshotID) of \(report.sourceName): \(report.files) files, \(megabytes(report.bytes))"]
        if !report.appsRestored.isEmpty { lines.append("Apps: \(report.appsRestored.joined(separator: ", "))") }
        if !report.appsNotInstalled.isEmpty { lines.append("Not installed here: \(report.appsNotInstalled.joined(separator: ", "))") }
        lines.append("Keychain: \(report.keychain)")
        lines.append("MobileBackup directory: \(report.backupDirectory)")
        return lines.joined(separator: "\n")
    }

    static func status(_ status: AccountStatus, thisDevice: Int64) -> String {
        var lines = ["\(status.account): \(megabytes(status.usedBytes)) of \(megabytes(status.quotaBytes)) used, \(status.chunkCount) chunks"]
        for device in status.devices {
            let mark = device.deviceID == thisDevice ? " (this device)" : ""
            let last = device.lastSnapshot.map { "snapshot \($0.snapshotID), \($0.files) files, \(megabytes($0.bytes))" } ?? "no snapshot"
            lines.append("  \(device.deviceID) \(device.name)\(mark): \(last)"
                         + (device.appsOff.isEmpty ? "" : "; off: \(device.appsOff.joined(separator: ", "))"))
        }
        return lines.joined(separator: "\n")
    }
}

/// The progress bar of a backup or restore, one phase at a time.
final class CloudProgressBar: Sendable {
    private struct Current {
        var phase: CloudProgress.Phase?
        var bar: ByteProgressBar?
    }

    private let quiet: Bool
    private let current = Locked(Current())

    init(quiet: Bool) { self.quiet = quiet }

    var update: @Sendable (CloudProgress) -> Void {
        { [self] progress in
            current.withLock { current in
                if current.phase != progress.phase {
                    current.bar?.finish()
                    current.phase = progress.phase
                    current.bar = ByteProgressBar(progress.phase.rawValue.capitalized, total: progress.total, quiet: quiet)
                }
                current.bar?.set(fraction: progress.done, of: progress.total)
            }
        }
    }

    func finish() { current.withLock { $0.bar?.finish() } }
}
