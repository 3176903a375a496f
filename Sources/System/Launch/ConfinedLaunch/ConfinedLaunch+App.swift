import Container
import Foundation

extension ConfinedLaunch {
    /// The directories of a data container an app may write: the rest of
    /// the container (its root) is read-only, as on iOS.
    /// (The top-level directories whose row in Container's rules table is
    /// writable: `Documents`, `Library` and `tmp`.)
    public static let writableContainerDirectories = ContainerDirectory.layout(of: .app)
        .filter { !$0.relativePath.contains("/") && StorageRules.rules(for: $0, in: .app).writable }
        .map(\.relativePath)

    /// Describes the launch of an app: `executable` inside `bundle` runs with
    /// ``ContainerEnvironment`` for `container`, starts in the container, and
    /// may reach only the system (read-only), its bundle (read and execute),
    /// its container's root (read), `Documents`, `Library` and `tmp`
    /// (read-write, never executed), and `groups` (shared app-group
    /// containers, read-write). The data directories are opened beneath the
    /// container without following links (``PathRule/beneath``), and the
    /// program runs as ``ConfinedLaunch/user``, never as root.
    public static func app(executable: URL, bundle: URL, container: URL, groups: [URL] = [],
                           arguments: [String] = [], environment extra: [String: String] = [:]) -> ConfinedLaunch {
        let containerPath = container.standardizedFileURL.path
        let bundlePath = bundle.standardizedFileURL.path
        var environment = ContainerEnvironment(container: containerPath, bundle: bundlePath,
                                               inheriting: ProcessInfo.processInfo.environment).variables
        environment.merge(extra) { _, new in new }
        var launch = ConfinedLaunch(executable: executable, arguments: arguments, environment: environment)
        launch.rules.append(PathRule(bundlePath, .readExecute))
        launch.rules.append(PathRule(containerPath, .read))
        // Opened beneath the container with no link followed: a `Documents`
        // that a restore or anyone else made a link must not grant its target.
        for name in writableContainerDirectories {
            launch.rules.append(PathRule(containerPath + "/" + name, .readWrite, beneath: containerPath))
        }
        launch.rules += groups.map { PathRule($0, .readWrite) }
        // Every app's bundle and container sits beside this one's: a run
        // path must not open them (the app's own are allowed by the rules above).
        let bundles = bundle.standardizedFileURL.deletingLastPathComponent().deletingLastPathComponent().path
        launch.libraryExclusions = [bundles, container.standardizedFileURL.deletingLastPathComponent().path]
            + groups.map { $0.standardizedFileURL.deletingLastPathComponent().path }
        launch.libraryExclusions = launch.libraryExclusions.reduce(into: []) { unique, path in
            if path != "/" && !path.isEmpty && !unique.contains(path) { unique.append(path) }
        }
        launch.workingDirectory = container
        return launch
    }
}
