/// The containers `simctl get_app_container` names, plus the directories of
/// the data container people ask for most.
public enum ContainerKind: Sendable, Hashable {
    /// The `.app` bundle in the bundle container.
    case app
    /// The data container (the app's home).
    case data
    /// `Documents/` in the data container.
    case documents
    /// `Library/Caches/` in the data container.
    case caches
    /// `tmp/` in the data container.
    case tmp
    /// The container of the app's first app group.
    case groups
    /// The container of one app group.
    case group(String)

    /// Parses a `simctl`-style name: `app`, `data`, `documents`, `caches`,
    /// `tmp`, `groups`, or an app group identifier (`group.…`).
    public init?(name: String) {
        switch name {
        case "app": self = .app
        case "data": self = .data
        case "documents": self = .documents
        case "caches": self = .caches
        case "tmp": self = .tmp
        case "groups": self = .groups
        default:
            guard name.hasPrefix("group.") else { return nil }
            self = .group(name)
        }
    }
}
