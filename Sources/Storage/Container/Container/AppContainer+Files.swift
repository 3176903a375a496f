import Foundation

/// Confined file operations. Paths are relative to the container root
/// (`"Documents/a.txt"`).
extension AppContainer {
    /// The whole content of a file. Files up to
    /// ``ContainerOptions/mappedReadThreshold`` bytes are read into memory;
    /// larger ones are mapped and unmapped when the `Data` is released.
    public func read(_ path: String) throws -> Data {
        try directory.readFile(try ContainerPath(path), mappedAbove: options.mappedReadThreshold)
    }

    /// Whether something exists at `path` (following links that stay in the
    /// container). Paths that escape, or miss by case, do not exist.
    public func fileExists(_ path: String) -> Bool {
        guard let path = try? ContainerPath(path),
              let fd = try? directory.open(path, flags: Platform.pathOnly, action: "look up") else { return false }
        Platform.close(fd)
        return true
    }

    /// Size, mode, dates, inode and type of the item at `path` (a symbolic
    /// link is described itself).
    public func attributes(_ path: String) throws -> ContainerFileInfo {
        let path = try ContainerPath(path)
        if path.isRoot {
            do { return ContainerFileInfo(try Platform.stat(directory.root.fd)) }
            catch { throw ContainerError(error, path: path.text, "read attributes") }
        }
        // A path-only descriptor of the item itself (a final link is not
        // followed), then fstat: the lookup resolves beneath the root once,
        // and a path-only open costs less than opening the parent directory.
        let fd = try directory.open(path, flags: Platform.pathOnly, followFinal: false, action: "read attributes")
        defer { Platform.close(fd) }
        do { return ContainerFileInfo(try Platform.stat(fd)) }
        catch { throw ContainerError(error, path: path.text, "read attributes") }
    }

    /// Creates a directory and any missing parents. Existing directories are
    /// fine; new ones must be in a writable place.
    public func createDirectory(_ path: String) throws {
        let path = try ContainerPath(path)
        var prefix: [String] = []
        for component in path.components {
            let current = ContainerPath(validComponents: prefix + [component])
            let created: Bool = try directory.withParent(current, action: "create a directory") { parent, name throws(ContainerError) in
                if let info = try? Platform.stat(parent, name) {
                    if info.isDirectory { return false }
                    guard info.isSymbolicLink else {
                        throw ContainerError(.notDirectory, path: current.text, "cannot create a directory: a file is in the way")
                    }
                    // A link: it must lead to a directory inside the container.
                    let fd = try directory.open(current, flags: Platform.directoryFlags, action: "create a directory")
                    Platform.close(fd)
                    return false
                }
                try checkWritable(current, action: "create a directory")
                do throws(SystemFailure) { try Platform.makeDirectory(parent, name) } catch {
                    if Platform.isExists(error.errno) { return false }
                    throw directory.failure(error, current, "create a directory")
                }
                do { try Platform.sync(parent) } catch {}
                return true
            }
            _ = created
            prefix.append(component)
        }
    }

    /// The names in a directory, sorted, without "." and "..". The
    /// container's own bookkeeping files at the root are left out.
    public func contentsOfDirectory(_ path: String) throws -> [String] {
        let path = try ContainerPath(path)
        let fd = try directory.open(path, flags: Platform.directoryFlags, action: "list")
        defer { Platform.close(fd) }
        do {
            var names = try Platform.listDirectory(fd)
            if path.isRoot { names.removeAll { ExclusionRecord.isBookkeeping($0) } }
            return names.sorted()
        } catch {
            throw ContainerError(error, path: path.text, "list")
        }
    }

    /// Removes a file, link or directory (with its contents). Links are
    /// removed, never followed.
    public func removeItem(_ path: String) throws {
        let path = try ContainerPath(path)
        try checkWritable(path, action: "remove")
        try directory.withParent(path, action: "remove") { parent, name throws(ContainerError) in
            do throws(SystemFailure) {
                try Self.removeTree(parent, name)
                try? Platform.sync(parent)
            } catch {
                throw directory.failure(error, path, "remove")
            }
        }
        try exclusionRecordRemove(path)
    }

    static func removeTree(_ parent: Platform.Descriptor, _ name: String) throws(SystemFailure) {
        let info = try Platform.stat(parent, name)
        if info.isDirectory {
            let fd = try Platform.openAt(parent, name, flags: Platform.directoryFlags | Platform.noFollow)
            defer { Platform.close(fd) }
            for child in try Platform.listDirectory(fd) {
                try removeTree(fd, child)
            }
            try Platform.unlink(parent, name, directory: true)
        } else {
            try Platform.unlink(parent, name, directory: false)
        }
    }

    /// Moves (renames) an item; the destination must not exist. The
    /// do-not-back-up flag moves with it.
    public func moveItem(_ from: String, to: String) throws {
        let source = try ContainerPath(from)
        let destination = try ContainerPath(to)
        try checkWritable(source, action: "move")
        try checkWritable(destination, action: "move")
        let sourceParent = try directory.openParent(source, action: "move")
        defer { Platform.close(sourceParent) }
        try directory.withParent(destination, action: "move") { parent, name throws(ContainerError) in
            do throws(SystemFailure) {
                try Platform.rename(sourceParent, source.name, parent, name, replace: false)
                try? Platform.sync(parent)
                try? Platform.sync(sourceParent)
            } catch {
                if Platform.isNotFound(error.errno), (try? Platform.stat(sourceParent, source.name)) == nil {
                    throw directory.failure(error, source, "move")
                }
                throw directory.failure(error, destination, "move")
            }
        }
        try exclusionRecordMove(from: source, to: destination)
    }
}
