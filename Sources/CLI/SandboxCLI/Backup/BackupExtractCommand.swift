import ArgumentParser
import Foundation
import MobileBackup

/// `sandbox backup extract`: writes one domain's files out.
struct BackupExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Write one app's data (by bundle ID) or one domain of a backup into a directory.",
        discussion: """
            The second argument is a domain of the backup (HomeDomain, AppDomainGroup-<group>, \
            KeychainDomain …) or a bundle ID, which names AppDomain-<bundle id>. Damaged payloads \
            are reported and left out; exit status 1 if there were any.
            """)

    @OptionGroup var options: BackupReadOptions

    @Argument(help: ArgumentHelp("A bundle ID or a domain.", valueName: "bundle id|domain"))
    var domain: String

    @Argument(help: ArgumentHelp("The directory to write into (created if missing).", valueName: "dir"))
    var output: String

    func run() throws {
        try CommandRunner.run {
            let reader = try options.reader()
            let name = try Self.domain(named: domain, in: reader)
            let total = reader.records(inDomain: name).filter { $0.kind == .file }.reduce(Int64(0)) { $0 + $1.size }
            let bar = ByteProgressBar("Extracting", total: total, quiet: options.json)
            let report = try reader.extract(domain: name, to: URL(fileURLWithPath: output), progress: { bar.advance(by: $0) })
            bar.finish()
            try BackupOutput.printVerification(report, path: output, json: options.json, verb: "extracted")
            if !report.isClean { throw ExitCode.failure }
        }
    }

    /// The domain `argument` names: itself, or the app domain of a bundle ID.
    static func domain(named argument: String, in reader: BackupReader) throws -> String {
        let domains = reader.domains
        if domains.contains(argument) { return argument }
        if domains.contains("AppDomain-" + argument) { return "AppDomain-" + argument }
        // One short line, however many domains there are: the count and the nearest names.
        let closest = DomainSuggestions.closest(to: argument, in: domains)
        throw MobileBackupError(.notFound, domain: argument,
                                "no such domain or app in the backup, which has \(domains.count) domain\(domains.count == 1 ? "" : "s"); the closest: "
                                + "\(closest.joined(separator: ", ")) (`sandbox backup info` lists them all)")
    }
}
