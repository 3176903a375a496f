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

    /// Runs `body` with the directory at `path` held open beneath the root
    /// (no link followed), or with nil when no directory is there. For
    /// callers that look up many names in one directory with `*at` calls
    /// (a cache manifest's launch check) instead of resolving each path.
    public func withDirectory<T>(_ path: String, _ body: (FileDescriptor?) throws -> T) throws -> T {
        guard let fd = try openDirectoryIfPresent(try ContainerPath(path)) else { return try body(nil) }
        defer { fd.closeQuietly() }
        return try body(fd)
    }

    /// Flushes every file of the container's file system to disk
    /// (`syncfs`): one flush after a batch of writes made without one each.
    public func synchronizeFileSystem() throws {
        do { try directory.root.descriptor.syncFileSystem() }
        catch { throw ContainerError(error, path: "", "flush the file system") }
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
