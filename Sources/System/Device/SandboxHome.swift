import Foundation

/// Where Sandbox keeps its devices and backups: `$SANDBOX_HOME` when set,
/// else `~/.local/share/sandbox`, with devices under `devices/` and backups
/// under `backups/`.
///
/// The one place `$SANDBOX_HOME` is read: the library's defaults
/// (``Device/devicesDirectory(environment:)``, ``Device/backupsDirectory(environment:)``)
/// and every command of the `sandbox` tool go through it.
public struct SandboxHome: Hashable, Sendable {
    /// The environment variable naming the directory.
    public static let variable = "SANDBOX_HOME"

    /// The directory holding `devices/` and `backups/`.
    public var root: URL

    /// The home at `root`.
    public init(root: URL) {
        self.root = root
    }

    /// The home `environment` names (see ``root(environment:)``).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(root: Self.root(environment: environment))
    }

    /// `$SANDBOX_HOME` when set and not empty, else `.local/share/sandbox`
    /// in the user's home directory (`$HOME`, else the account's).
    public static func root(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let home = environment[variable], !home.isEmpty {
            return URL(fileURLWithPath: home, isDirectory: true)
        }
        let user = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return user.appendingPathComponent(".local/share/sandbox", isDirectory: true)
    }

    /// The directory holding named devices, one `<name>` directory each.
    public var devices: URL { root.appendingPathComponent("devices", isDirectory: true) }

    /// The directory holding backups, one `<UDID>` directory each.
    public var backups: URL { root.appendingPathComponent("backups", isDirectory: true) }
}
