import Container

/// The environment an app's program gets: every conventional location points
/// into its data container, so plain Foundation and XDG-aware code land in
/// the right iOS directory without knowing about containers.
///
/// | variable | value | why |
/// |---|---|---|
/// | `HOME`, `CFFIXED_USER_HOME` | the data container | `NSHomeDirectory()`, `~` |
/// | `TMPDIR` | `<container>/tmp/` | `NSTemporaryDirectory()`, `mkstemp` |
/// | `XDG_CONFIG_HOME` | `Library/Preferences` | settings |
/// | `XDG_CACHE_HOME` | `Library/Caches` | purgeable, not backed up |
/// | `XDG_DATA_HOME` | `Library/Application Support` | app data, backed up |
/// | `XDG_STATE_HOME` | `Library/Application Support` | iOS has no separate state directory |
/// | `XDG_RUNTIME_DIR` | `<container>/tmp` | sockets and runtime files, emptied like tmp |
/// | `SANDBOX_CONTAINER` | the data container | for code that knows it is sandboxed |
/// | `SANDBOX_BUNDLE` | the app bundle | the bundle's resources |
/// | `PWD` | the data container | the working directory |
/// | `PATH` | `/usr/local/bin:/usr/bin:/bin` | the launcher's `PATH` points outside |
///
/// Of the launcher's own environment only locale, time zone and terminal
/// variables (``inheritedNames``) pass through; the rest (agent sockets,
/// session buses, tokens) would point outside the container.
public struct ContainerEnvironment: Sendable, Hashable {
    /// The launcher variables that are passed on.
    public static let inheritedNames: Set<String> = [
        "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_COLLATE", "LC_MESSAGES", "LC_MONETARY",
        "LC_NUMERIC", "LC_TIME", "TZ", "TERM", "COLORTERM", "NO_COLOR", "USER", "LOGNAME",
    ]

    /// The variables, complete.
    public var variables: [String: String]

    /// The environment for an app with its data container at `container` and
    /// its bundle at `bundle`; `inheriting` is the launcher's environment.
    public init(container: String, bundle: String, inheriting launcher: [String: String]) {
        var variables = launcher.filter { Self.inheritedNames.contains($0.key) || $0.key.hasPrefix("LC_") }
        func path(_ directory: ContainerDirectory) -> String { container + "/" + directory.relativePath }
        variables["HOME"] = container
        variables["CFFIXED_USER_HOME"] = container
        variables["PWD"] = container
        variables["TMPDIR"] = path(.tmp) + "/"
        variables["XDG_CONFIG_HOME"] = path(.preferences)
        variables["XDG_CACHE_HOME"] = path(.caches)
        variables["XDG_DATA_HOME"] = path(.applicationSupport)
        variables["XDG_STATE_HOME"] = path(.applicationSupport)
        variables["XDG_RUNTIME_DIR"] = path(.tmp)
        variables["SANDBOX_CONTAINER"] = container
        variables["SANDBOX_BUNDLE"] = bundle
        variables["PATH"] = "/usr/local/bin:/usr/bin:/bin"
        self.variables = variables
    }
}
