import ArgumentParser
import CacheManifest
import Device

/// The manifest of an app's container, opened from the command's options.
struct CacheTarget: ParsableArguments {
    @Argument(help: ArgumentHelp("The app's bundle identifier.", valueName: "bundle-id"))
    var bundleID: String

    @OptionGroup var options: DeviceOptions

    func manifest() throws -> CacheManifest {
        let device = try options.open()
        return try CacheManifest(container: try device.app(bundleID).dataContainer())
    }

    /// Runs `status` and `verify`: opens the manifest, checks it with
    /// `check`, and prints its entries with the report, as JSON with
    /// `--json`, else as text.
    func printStatus(checking check: (CacheManifest) throws -> CacheCheckReport) throws {
        try CommandRunner.run {
            let manifest = try self.manifest()
            let report = try check(manifest)
            // The entries that read whole; a damaged row is in the report.
            let status = CacheStatusJSON(bundleID: bundleID, entries: try manifest.readableEntries().entries, report: report)
            try options.output(json: status, text: status.text)
        }
    }
}

/// `sandbox cache status <bundle id>`: the launch check, without fetching.
struct CacheStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Compare the app's cache manifest with its files (sizes, inodes, times) in one pass.",
        discussion: "Example: sandbox cache status com.example.Possessions --json")

    @OptionGroup var target: CacheTarget

    func run() throws {
        try target.printStatus { manifest in try manifest.check() }
    }
}

/// `sandbox cache verify <bundle id>`: hashes every recorded file.
struct CacheVerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Hash every recorded file and compare it with its SHA-256 in the manifest.",
        discussion: "A progress bar is drawn on standard error on a terminal. Example: sandbox cache verify com.example.Possessions")

    @OptionGroup var target: CacheTarget

    func run() throws {
        try target.printStatus { manifest in
            let bar = CountProgressBar.forStandardError(minimumTotal: 50)
            let report = try manifest.verify { done, total in bar?.update(done: done, total: total) }
            bar?.finish()
            return report
        }
    }
}
