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
}
