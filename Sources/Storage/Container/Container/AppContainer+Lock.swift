/// Advisory locking between processes and threads that share a container.
extension AppContainer {
    /// Holds an exclusive advisory lock (`flock`) on the lock file
    /// `.<name>.lock` next to `path` while `body` runs. Every process and
    /// thread that locks the same path through this API waits its turn.
    public func withExclusiveLock<T>(on path: String, _ body: () throws -> T) throws -> T {
        let path = try ContainerPath(path)
        guard !path.isRoot else { throw ContainerError(.invalidPath, path: path.text, "cannot lock the container root") }
        let lockPath = path.sibling(".\(path.name).lock")
        try checkWritable(lockPath, action: "lock")
        let fd = try directory.open(lockPath, flags: Platform.readWrite | Platform.create, mode: 0o644, followFinal: false,
                                    action: "lock")
        defer { Platform.close(fd) }
        do { try Platform.lockExclusive(fd) } catch { throw ContainerError(error, path: path.text, "lock") }
        defer { Platform.unlock(fd) }
        return try body()
    }
}
