import FileSystem
import SystemPackage

/// The backup's answer for an item that a walk of the container holds the
/// directory of: ``backupIncludes(_:isDirectory:)`` resolves the item's
/// path beneath the container and opens it to read its flag, several system
/// calls an item; a walk that already holds the parent reads the flag from
/// there by name (`getxattrat`), one call, and makes the item's path only
/// where it needs it.
extension AppContainer {
    /// Whether a backup takes the item `name` of `parent`, which a top-down
    /// walk of the container met with `status`: the same answer as
    /// ``backupIncludes(_:isDirectory:)`` for its path.
    ///
    /// - Parameters:
    ///   - rules: the rules row that governs the item
    ///     (``StorageRules/rules(forRelativePath:)`` of its path; a walk
    ///     looks it up once per directory).
    ///   - isTopLevel: whether it lies directly in the container's root.
    ///   - pathLength: the length in bytes of its container-relative path.
    ///   - relativePath: that path, asked for only when the flag is kept in
    ///     the container's record (a file system without extended
    ///     attributes) or the item is neither a file, a directory nor a link.
    public func backupIncludes(entry name: String, in parent: FileDescriptor, status: FileStatus,
                               governedBy rules: DirectoryRules, isTopLevel: Bool, pathLength: Int,
                               relativePath: () -> String) -> Bool {
        // The checks of `backupIncludes(_:isDirectory:)`, in its order.
        guard pathLength <= ContainerPath.maximumLength, rules.backedUp else { return false }
        if isTopLevel && name.hasPrefix(".com.apple.") { return false }
        if Self.isInterruptedWriteLeftover(name) { return false }
        if options.exclusionStorage == .record {
            guard let record = try? exclusionRecord() else { return false }
            return !record.contains(relativePath())
        }
        if status.isSymbolicLink { return true }  // a link carries no flag
        guard status.isRegularFile || status.isDirectory else {
            return backupIncludes(relativePath(), isDirectory: status.isDirectory)
        }
        do {
            guard let value = try parent.extendedAttribute(Self.exclusionAttributeName, ofEntry: name) else { return true }
            return !(value.first.map { $0 != 0 } ?? false)
        } catch {
            guard error.isUnsupported, let record = try? exclusionRecord() else { return false }
            return !record.contains(relativePath())
        }
    }
}
