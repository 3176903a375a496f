import FileSystem
import SystemPackage

/// Listing a whole tree in one pass.
extension AppContainer {
    /// Every item beneath the directory `path`, with its paths relative to
    /// the container root and the status a descriptor-based walk saw (links
    /// are reported, never followed). One pass: a caller that checks many
    /// files (a cache manifest at launch) asks once instead of per file.
    /// A missing directory has no items.
    public func items(under path: String) throws -> [(path: String, info: ContainerFileInfo)] {
        let base = try ContainerPath(path)
        guard let fd = try openDirectoryIfPresent(base) else { return [] }
        defer { fd.closeQuietly() }
        let prefix = base.isRoot ? "" : base.normalized + "/"
        var items: [(path: String, info: ContainerFileInfo)] = []
        do {
            try fd.walkTree { entry, _ throws(FileSystemError) -> TreeWalkDecision in
                items.append((prefix + entry.path, ContainerFileInfo(entry.status)))
                return .descend
            }
        } catch {
            throw ContainerError(error, path: base.text, "list")
        }
        return items
    }

    /// The directory at `path`, or nil when nothing is there.
    private func openDirectoryIfPresent(_ path: ContainerPath) throws -> FileDescriptor? {
        do {
            return try directory.open(path, .readOnly, options: .directory, action: "list")
        } catch {
            if error.code == .notFound { return nil }
            throw error
        }
    }

    /// Moves an item over another, atomically (`rename`): readers see the
    /// old item or the new one, never neither. The do-not-back-up flag
    /// moves with the item, as in ``moveItem(_:to:)``.
    public func replaceItem(at destination: String, withItemAt source: String) throws {
        let from = try ContainerPath(source)
        let to = try ContainerPath(destination)
        try checkWritable(from, action: "replace")
        try checkWritable(to, action: "replace")
        let sourceParent = try directory.openParent(from, action: "replace")
        defer { sourceParent.closeQuietly() }
        try directory.withParent(to, action: "replace") { parent, name throws(ContainerError) in
            do throws(FileSystemError) {
                try sourceParent.rename(from.name, to: parent, name, replace: true)
                try? parent.sync()
            } catch {
                throw directory.failure(error, to, "replace")
            }
        }
        try exclusionRecordMove(from: from, to: to)
    }
}
