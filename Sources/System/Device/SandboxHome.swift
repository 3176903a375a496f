import Foundation
import Launch

/// Where Sandbox keeps its devices and backups: `$SANDBOX_HOME` when set,
/// else `~/.local/share/sandbox` (as root, `/var/lib/sandbox`), with devices
/// under `devices/` and backups under `backups/`.
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

    /// Where root keeps devices when `$SANDBOX_HOME` is not set.
    public static let systemRoot = URL(fileURLWithPath: "/var/lib/sandbox", isDirectory: true)

    /// `$SANDBOX_HOME` when set and not empty; else, for root,
    /// ``systemRoot``; else `.local/share/sandbox` in the user's home
    /// directory (`$HOME`, else the account's).
    ///
    /// Root's own home (`/root`) is closed to other users, and a launched
    /// app runs as the unprivileged user 501 (as iOS's apps run as
    /// `mobile`), which must be able to reach its container: so root's
    /// devices live where every user may pass, as system services' data does.
    public static func root(environment: [String: String] = ProcessInfo.processInfo.environment,
                            isPrivileged: Bool = ProcessControl.isPrivileged) -> URL {
        if let home = environment[variable], !home.isEmpty {
            return URL(fileURLWithPath: home, isDirectory: true)
        }
        if isPrivileged { return systemRoot }
        let user = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return user.appendingPathComponent(".local/share/sandbox", isDirectory: true)
    }

    /// The directory holding named devices, one `<name>` directory each.
    public var devices: URL { root.appendingPathComponent("devices", isDirectory: true) }

    /// The directory holding backups, one `<UDID>` directory each.
    public var backups: URL { root.appendingPathComponent("backups", isDirectory: true) }
}
