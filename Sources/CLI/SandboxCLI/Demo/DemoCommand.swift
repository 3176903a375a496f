import ArgumentParser
import Device
import Foundation

/// `sandbox demo`: the project's main job. On fresh devices under
/// `$SANDBOX_HOME`, it runs the seed's Possessions app through its life —
/// install, first launch, saving, a denied escape, a backup, a low-disk
/// purge, a relaunch that rebuilds its cache, an update and a restore onto a
/// second device, its pictures fetched from a content server the demo
/// starts on 127.0.0.1, an iCloud backup, and last an audit of its storage
/// with an HTML report beside the devices — and narrates each step with
/// what is on disk.
public struct DemoCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the Possessions app through install, backup, purge, update and restore, narrating each step, then audit its storage."
    )

    @Option(name: .customLong("home"), help: ArgumentHelp(
        "Where to keep the demo's devices and backup (default: $SANDBOX_HOME, else ~/.local/share/sandbox, or /var/lib/sandbox as root).",
        valueName: "dir"))
    var home: String?

    public init() {}

    public func run() async throws {
        try await CommandRunner.run {
            var script = DemoScript(home: DemoCommand.resolveHome(home), narrator: DemoNarrator())
            try await script.run()
        }
    }

    /// `--home` when given, else the usual home (``SandboxHome``).
    static func resolveHome(_ option: String?) -> SandboxHome {
        guard let option, !option.isEmpty else { return SandboxHome() }
        return SandboxHome(root: URL(fileURLWithPath: option, isDirectory: true))
    }
}
