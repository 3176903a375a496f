import ArgumentParser
import Foundation
import MobileBackup

/// `sandbox backup verify`: checks every payload against its record.
struct BackupVerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check every payload of a backup by size and digest; report each damaged file.",
        discussion: "Exit status 1 when any payload is damaged.")

    @OptionGroup var options: BackupReadOptions

    func run() throws {
        try CommandRunner.run {
            let reader = try options.reader()
            let total = reader.records.filter { $0.kind == .file }.reduce(Int64(0)) { $0 + $1.size }
            let bar = ByteProgressBar("Verifying", total: total, quiet: options.json)
            let report = reader.verify { bar.advance(by: $0) }
            bar.finish()
            try BackupOutput.printVerification(report, path: reader.directory.path, json: options.json, verb: "verified")
            if !report.isClean { throw ExitCode.failure }
        }
    }
}

/// The report of `verify` and `extract`, as text or JSON.
enum BackupOutput {
    static func printVerification(_ report: BackupVerificationReport, path: String, json: Bool, verb: String) throws {
        if json {
            try JSONOutput.print(BackupJSON.Verification(report, path: path))
            return
        }
        var text = "\(report.verifiedFiles) files \(verb) (\(report.verifiedBytes) bytes)"
        if report.uncheckedDigests > 0 { text += ", \(report.uncheckedDigests) without a checkable digest" }
        // Only extract writes: for verify the damaged files are just named.
        let damaged = verb == "extracted" ? "damaged, not written out" : "damaged"
        text += report.isClean ? "; no damaged payloads\n" : "; \(report.problems.count) \(damaged):\n"
        for problem in report.problems { text += "  \(problem)\n" }
        try CommandRunner.print(text)
    }
}
