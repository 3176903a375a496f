/// Where a ``ContainerMigration`` moves an app's `Documents`.
///
/// iOS 5's storage rules: data the app can download or create again
/// belongs in `Library/Caches` (not backed up, purgeable); data it needs
/// offline but that is not the user's belongs in
/// `Library/Application Support` with the do-not-back-up flag (QA1719),
/// which keeps it out of backups without letting a purge delete it.
public enum MigrationDestination: String, Sendable, Hashable, Codable, CaseIterable {
    /// `Library/Caches`.
    case caches
    /// `Library/Application Support`, every moved item flagged do-not-back-up.
    case applicationSupport = "support"

    /// The destination's directory in the container.
    public var directory: ContainerDirectory {
        switch self {
        case .caches: .caches
        case .applicationSupport: .applicationSupport
        }
    }

    /// Whether moved items get the do-not-back-up flag
    /// (``AppContainer/exclusionAttributeName``). Caches are never backed
    /// up, so they need none.
    public var excludesFromBackup: Bool { self == .applicationSupport }
}
