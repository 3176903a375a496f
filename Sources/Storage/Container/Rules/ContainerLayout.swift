/// Which kind of container a path is in: the rows of ``StorageRules`` differ.
public enum ContainerLayout: String, Sendable, Hashable, CaseIterable, Codable {
    /// An app's data container: Documents, Library (Preferences, Caches,
    /// Application Support), tmp, and the bundle beside it.
    case app
    /// An app group's shared container: Library (Preferences, Caches), and
    /// whatever the group's apps put at its top.
    case group
}
