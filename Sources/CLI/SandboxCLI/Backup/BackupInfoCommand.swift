import ArgumentParser
import Foundation
import MobileBackup

/// `sandbox backup info`: what a backup says about itself, and its domains.
struct BackupInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show a backup's device, date, state and apps, and (when readable) its domains.",
        discussion: "The domains of an encrypted backup are shown only with --password.")

    @OptionGroup var options: BackupReadOptions

    func run() throws {
        try CommandRunner.run {
            let directory = try options.directory()
            let info = try BackupInfo.read(directory: directory)
            var domains: [BackupJSON.Domain]?
            if !info.isEncrypted || options.password != nil {
                domains = BackupJSON.domains(try BackupReader(directory: directory, password: options.password))
            }
            let result = BackupJSON.Info(backup: BackupJSON.Summary(info, path: directory), domains: domains)
            try options.output(json: result, text: Self.text(result))
        }
    }

    /// The info for people: the backup's summary, then its domains or why
    /// they are not listed.
    static func text(_ result: BackupJSON.Info) -> String {
        let summary = result.backup
        var lines = [
            "Backup:     \(summary.path)",
            "Device:     \(summary.device.name) (\(summary.device.productType), iOS \(summary.device.productVersion))",
            "UDID:       \(summary.device.udid)",
            "Date:       \(summary.date.map { ISO8601DateFormatter().string(from: $0) } ?? "unknown")",
            "Encrypted:  \(summary.encrypted ? "yes" : "no")",
            "State:      \(summary.snapshotState ?? "no Status.plist")\(summary.fullBackup.map { $0 ? ", full" : ", incremental" } ?? "")",
            "Written by: \(summary.writtenBySandbox ? "Sandbox" : "another host (iTunes, Finder or a tool)")",
            "Apps:       \(summary.applications.isEmpty ? "none listed" : summary.applications.joined(separator: ", "))",
        ]
        if let domains = result.domains {
            lines.append("Domains:")
            for domain in domains {
                lines.append("  \(domain.domain): \(domain.files) files, \(domain.directories) directories, "
                             + "\(domain.symbolicLinks) links, \(domain.bytes) bytes")
            }
        } else {
            lines.append("Domains:    encrypted; give --password to list them")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
