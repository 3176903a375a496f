import FileSystem
import SystemPackage

/// What a backup of the container takes: the one answer backup code asks
/// for, so the rules table and the do-not-back-up flag are read in one place.
extension AppContainer {
    /// Whether the item at `relativePath` goes into a backup, as a filter for
    /// a top-down walk of the container (`BackupDomainSource.shouldInclude`
    /// has this shape): its directory's rule is ``DirectoryRules/backedUp``
    /// (so nothing under `Library/Caches`, `tmp` or the bundle), the item
    /// itself does not carry the do-not-back-up flag, and it is not the
    /// container's own bookkeeping (the exclusion record and the container
    /// manager's metadata plist at the root, which iOS leaves out of backups,
    /// or a temporary file an interrupted atomic write left behind).
    ///
    /// The flag of a containing directory is not consulted: a walk that does
    /// not descend into an excluded directory never asks about its contents.
    /// An item that cannot be looked up (it vanished, or its path escapes)
    /// is not backed up.
    public func backupIncludes(_ relativePath: String, isDirectory: Bool = false) -> Bool {
        guard let path = try? ContainerPath(relativePath) else { return false }
        if path.isRoot { return true }
        guard StorageRules.rules(forRelativePath: path.normalized).backedUp else { return false }
        let name = path.name
        if path.isTopLevel && name.hasPrefix(".com.apple.") { return false }
        if Self.isInterruptedWriteLeftover(name) { return false }
        guard let excluded = try? isExcludedFromBackup(relativePath) else { return false }
        return !excluded
    }

    /// Names of the temporary files atomic writes use (`.sb-<random>.tmp`).
    static func isInterruptedWriteLeftover(_ name: String) -> Bool {
        FileDescriptor.isTemporaryName(name)
    }
}
