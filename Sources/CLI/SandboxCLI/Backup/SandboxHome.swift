import Foundation

/// Where Sandbox keeps devices and backups: `$SANDBOX_HOME` when set, else
/// `~/.local/share/sandbox` (devices under `devices/`, backups under `backups/`).
enum SandboxHome {
    static let variable = "SANDBOX_HOME"

    static var root: URL {
        if let home = ProcessInfo.processInfo.environment[variable], !home.isEmpty {
            return URL(fileURLWithPath: home, isDirectory: true)
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share/sandbox", isDirectory: true)
    }

    /// The default directory holding backups, one `<UDID>` directory each.
    static var backups: URL { root.appendingPathComponent("backups", isDirectory: true) }
}
