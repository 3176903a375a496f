import FileSystem

/// Advisory locking between processes and threads that share a container.
extension AppContainer {
    /// Holds an exclusive advisory lock (`flock`) on the lock file
    /// `.<name>.lock` next to `path` (``LockFile/lockName(for:)``, the name
    /// a preferences tool writing the file by path also locks) while `body`
    /// runs. Every process and thread that locks the same path waits its turn.
    public func withExclusiveLock<T>(on path: String, _ body: () throws -> T) throws -> T {
        let path = try ContainerPath(path)
        guard !path.isRoot else { throw ContainerError(.invalidPath, path: path.text, "cannot lock the container root") }
        let lockPath = path.sibling(LockFile.lockName(for: path.name))
        try checkWritable(lockPath, action: "lock")
        let lock = try directory.withParent(lockPath, action: "lock") { parent, _ throws(ContainerError) in
            do throws(FileSystemError) { return try LockFile.acquire(for: path.name, in: parent) }
            catch { throw directory.failure(error, lockPath, "lock") }
        }
        defer { lock.release() }
        return try body()
    }
}
