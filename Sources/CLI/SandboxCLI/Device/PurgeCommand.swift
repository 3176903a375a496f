import ArgumentParser
import Device
import Foundation
import TerminalText

/// `sandbox purge`: iOS 5's low-space cleaner, on demand.
struct PurgeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge",
        abstract: "Empty Library/Caches and tmp of the apps that are not running and of their groups, and report what was freed.",
        discussion: "Running apps (with a live run record) are skipped, and so is an app group's shared container while any of its apps runs. On a terminal a progress bar is drawn on "
            + "standard error when there are many files.")

    @OptionGroup var options: DeviceOptions

    func run() throws {
        try CommandRunner.run {
            let device = try options.open()
            let bar = ProgressBar.forStandardError(minimumTotal: 2000)
            let report = try device.purge(progress: bar.map { bar in { bar.update($0) } })
            bar?.finish()
            func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
            let groups = report.groups.isEmpty ? "" : " and " + count(report.groups.count, "app group")
            var lines = ["Freed \(ByteText.format(report.bytes)) in \(count(report.files, "file")) from \(count(report.apps.count, "app"))\(groups)."]
            for app in report.apps + report.groups where app.files + app.directories > 0 {
                lines.append("  \(TerminalText.escape(app.bundleID)): \(count(app.files, "file")), \(ByteText.format(app.bytes))")
            }
            for id in report.skippedRunning { lines.append("  \(TerminalText.escape(id)): running, skipped") }
            for id in report.skippedRunningGroups { lines.append("  \(TerminalText.escape(id)): an app of the group is running, skipped") }
            try options.output(json: report, text: lines.joined(separator: "\n"))
        }
    }
}

/// A one-line progress bar on standard error, redrawn in place.
final class ProgressBar {
    private let minimumTotal: Int
    private var lastDrawn = -1

    private init(minimumTotal: Int) { self.minimumTotal = minimumTotal }

    /// A bar when standard error is a terminal, else nil.
    static func forStandardError(minimumTotal: Int) -> ProgressBar? {
        FileOutput.standardErrorIsTerminal ? ProgressBar(minimumTotal: minimumTotal) : nil
    }

    func update(_ progress: PurgeProgress) {
        guard let total = progress.total, total >= minimumTotal else { return }
        let percent = min(100, progress.removed * 100 / max(total, 1))
        guard percent != lastDrawn else { return }
        lastDrawn = percent
        let width = 30
        let filled = percent * width / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileOutput.writeToStandardError("\r[\(bar)] \(percent)% \(progress.removed)/\(total) \(ByteText.format(progress.bytes))")
    }

    func finish() {
        if lastDrawn >= 0 { FileOutput.writeToStandardError("\n") }
    }
}
