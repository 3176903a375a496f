import ArgumentParser
import Device
import Foundation
import MobileBackup

/// `sandbox backup restore`: puts a backup back onto a device.
struct BackupRestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup onto the device it came from, or onto another with --to-device.",
        discussion: """
            Apps in the backup that are installed on the target get their data back (Documents and \
            Library replaced; Library/Caches and tmp empty); apps that are not installed are listed \
            and skipped (install them, then restore again). Keychain items of a backup without a \
            password come back only on the device it was made on; ThisDeviceOnly items never move. \
            Damaged payloads are reported and not restored (exit status 1).
            """)

    @OptionGroup var options: BackupReadOptions

    @Option(name: .customLong("to-device"),
            help: ArgumentHelp("The target device: a name under $SANDBOX_HOME/devices, or a path. Default: the device with the backup's UDID.",
                               valueName: "name|path"))
    var device: String?

    @Flag(help: "Restore even when the backup's Status.plist says its snapshot is not finished (still uploading).")
    var force = false

    func run() throws {
        try CommandRunner.run {
            let backup = try options.directory()
            let target = try Self.target(device, for: backup)
            let reader = try BackupReader(directory: backup, password: options.password)
            let total = reader.records.filter { $0.kind == .file }.reduce(Int64(0)) { $0 + $1.size }
            let bar = ByteProgressBar("Restoring", total: total, quiet: options.json)
            let report = try target.restore(from: reader, password: options.password, force: force) { bar.advance(by: $0) }
            bar.finish()
            try options.output(json: BackupJSON.Restored(report, device: target.identity.udid),
                               text: Self.text(report, device: target))
            if !report.isClean { throw ExitCode.failure }
        }
    }

    /// The named device, or the one whose UDID the backup carries.
    static func target(_ name: String?, for backup: URL) throws -> Device {
        if let name { return try DeviceName.open(name) }
        let udid = try BackupInfo.read(directory: backup).device.udid
        guard let match = Device.list().first(where: { $0.identity.udid.caseInsensitiveCompare(udid) == .orderedSame }) else {
            throw ValidationError("no device with UDID \(udid) under \(SandboxHome().devices.path); name one with --to-device")
        }
        return try Device.open(at: match.root)
    }

    static func text(_ report: DeviceRestoreReport, device: Device) -> String {
        var lines = ["Restored \(report.restoredFiles) files (\(report.restoredBytes) bytes) onto \(device.identity.name) (\(device.identity.udid))"]
        let domains = report.domains.joined(separator: ", ")
        if !domains.isEmpty { lines.append("  domains: \(domains)") }
        for app in report.appsNotInstalled { lines.append("  \(app): not installed here; its data stays in the backup") }
        for group in report.groupsNotPresent { lines.append("  \(group): no installed app uses this group; not restored") }
        lines.append("  keychain: \(BackupJSON.keychainText(report.keychain))")
        if !report.skippedPaths.isEmpty { lines.append("  \(report.skippedPaths.count) rows skipped by rule (Caches, tmp, outside Documents/Library)") }
        for problem in report.problems { lines.append("  damaged, not restored: \(problem)") }
        return lines.joined(separator: "\n") + "\n"
    }
}
