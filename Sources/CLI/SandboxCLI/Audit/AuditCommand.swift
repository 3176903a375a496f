import ArgumentParser
import Foundation
import Launch
import StorageAudit
import StorageAuditReport
import TerminalText

/// `sandbox audit`: what each app costs the disk and the backup, checked
/// against the storage guidelines.
struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Show what each app costs the disk and the iCloud backup, and where it breaks the storage guidelines.",
        discussion: """
            Per app: bytes on disk (allocated blocks, as du -B1) and apparent size, by bundle, Documents, Library, \
            Application Support, Caches and tmp; what a backup takes, what a purge would free, what an update keeps; \
            keychain items, the cache manifest and stores. Hard links are counted once. Each finding cites an \
            "Audit rules" section (A1-A6) of docs/STORAGE-RULES.md and suggests a fix. Apps are sorted by size; \
            the bars are coloured only when standard output is a terminal. Nothing on the device changes.
            With --html, the audit is also written as one self-contained HTML page (no JavaScript, nothing \
            loaded): the stacked bars, a squarified treemap, the findings and the iCloud cost; the same tree \
            gives the same bytes.

            Examples:
              sandbox audit                                  every app on the default device
              sandbox audit com.example.possessions          one app
              sandbox audit --device demo --json > a.json    stable JSON (sorted keys; the same tree gives the same bytes)
              sandbox audit --html audit.html                the text, and the report as a page to open in a browser
            """)

    @Argument(help: ArgumentHelp("Audit only this app.", valueName: "bundle id"))
    var bundleID: String?

    @OptionGroup var options: DeviceOptions

    @Option(name: .customLong("html"), help: ArgumentHelp(
        "Also write the report as one self-contained HTML page to this file (replaced atomically).", valueName: "file"))
    var htmlPath: String?

    func run() throws {
        try CommandRunner.run {
            let device = try options.open()
            var auditor = StorageAuditor()
            // Progress on standard error, only on a terminal (never in the JSON).
            let showsProgress = FileOutput.standardErrorIsTerminal
            let audit = try auditor.audit(device: device, bundleID: bundleID, progress: showsProgress ? { step in
                FileOutput.writeToStandardError("\r\u{1B}[Kauditing \(step.index + 1)/\(step.count) \(TerminalText.escape(step.bundleID))")
            } : nil)
            if showsProgress { FileOutput.writeToStandardError("\r\u{1B}[K") }
            if let htmlPath {
                let page = Data(StorageReportPage(audit: audit).render().utf8)
                try FileOutput.writeAtomically(page, to: htmlPath)
                FileOutput.writeToStandardError("wrote the HTML report (\(page.count) bytes) to "
                                                + "\(URL(fileURLWithPath: htmlPath).standardizedFileURL.path)\n")
            }
            let colour = ProcessControl.isTerminal(ProcessControl.standardOutput)
            try options.output(json: audit, text: AuditText(colour: colour).render(audit))
        }
    }
}
