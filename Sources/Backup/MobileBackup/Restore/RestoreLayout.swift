/// How a full restore treats one container. MobileBackup knows no
/// container layout: the caller says which of the backup's rows come back,
/// which of the container's top-level entries the backup's replace, and
/// which directories are made again (Device derives all three from
/// Container's rules table).
public struct RestoreLayout: Sendable {
    /// Whether the backup's row at a domain-relative path comes back (the
    /// root, `""`, included); one that does not is skipped and listed.
    public var restores: @Sendable (_ relativePath: String) -> Bool
    /// Whether the container's top-level entry `name` is replaced by what
    /// the backup holds there (removed when the backup has nothing); the
    /// others are left as they are (a bundle, the container manager's
    /// metadata).
    public var replaces: @Sendable (_ name: String) -> Bool
    /// The directories made again after the restore, parents first; no row
    /// replaces one of them with a file or a link.
    public var directories: [String]
    /// A top-level directory the restore may stage in and leaves empty (an
    /// app's `tmp`), or nil to stage in a hidden directory at the top.
    public var stagingDirectory: String?

    public init(restores: @escaping @Sendable (String) -> Bool, replaces: @escaping @Sendable (String) -> Bool,
                directories: [String], stagingDirectory: String?) {
        self.restores = restores
        self.replaces = replaces
        self.directories = directories
        self.stagingDirectory = stagingDirectory
    }
}
