/// Keys whose values changed, and where the change came from.
///
/// ```swift
/// for await change in prefs.changes() where change.keys.contains("Theme") { … }
/// ```
public struct PreferencesChange: Hashable, Sendable {
    /// Where a change was made.
    public enum Origin: Hashable, Sendable {
        /// By this process: a `set`, a removal or a registration.
        case thisProcess
        /// By another process, seen when the domain's file was re-read.
        case anotherProcess
    }

    /// The keys whose values changed.
    public var keys: Set<String>
    /// Who changed them.
    public var origin: Origin

    /// Creates a change.
    public init(keys: Set<String>, origin: Origin) {
        self.keys = keys
        self.origin = origin
    }
}
