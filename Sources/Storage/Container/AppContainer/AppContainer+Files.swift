import FileSystem
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
              let fd = try? directory.open(path, .readOnly, options: .pathOnly, action: "look up") else { return false }
        fd.closeQuietly()
        return true
    }

    /// Size, mode, dates, inode and type of the item at `path` (a symbolic
    /// link is described itself).
    public func attributes(_ path: String) throws -> ContainerFileInfo {
        let path = try ContainerPath(path)
        if path.isRoot {
            do { return ContainerFileInfo(try directory.root.descriptor.status()) }
            catch { throw ContainerError(error, path: path.text, "read attributes") }
        }
        // A path-only descriptor of the item itself (a final link is not
        // followed), then fstat: the lookup resolves beneath the root once,
        // and a path-only open costs less than opening the parent directory.
        let fd = try directory.open(path, .readOnly, options: .pathOnly, followFinal: false, action: "read attributes")
        defer { fd.closeQuietly() }
        do { return ContainerFileInfo(try fd.status()) }
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
                if let info = try? parent.status(of: name) {
                    if info.isDirectory { return false }
                    guard info.isSymbolicLink else {
                        throw ContainerError(.notDirectory, path: current.text, "cannot create a directory: a file is in the way")
                    }
                    // A link: it must lead to a directory inside the container.
                    let fd = try directory.open(current, .readOnly, options: .directory, action: "create a directory")
                    fd.closeQuietly()
                    return false
                }
                try checkWritable(current, action: "create a directory")
                do throws(FileSystemError) { try parent.makeDirectory(name) } catch {
                    if error.isExists { return false }
                    throw directory.failure(error, current, "create a directory")
                }
                try? parent.sync()
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
        let fd = try directory.open(path, .readOnly, options: .directory, action: "list")
        defer { fd.closeQuietly() }
        do {
            var names = try fd.entries()
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
            do throws(FileSystemError) {
                // A missing item is an error here, not an empty removal.
                _ = try parent.status(of: name)
                _ = try parent.removeTree(name)
                try? parent.sync()
            } catch {
                throw directory.failure(error, path, "remove")
            }
        }
        try exclusionRecordRemove(path)
    }

    /// Moves (renames) an item; the destination must not exist. The
    /// do-not-back-up flag moves with it.
    public func moveItem(_ from: String, to: String) throws {
        try rename(from, to: to, replacing: false, flushing: true, action: "move")
    }

    /// Moves an item over another, atomically (`rename`): readers see the
    /// old item or the new one, never neither. The do-not-back-up flag
    /// moves with the item, as in ``moveItem(_:to:)``. With `.full` the
    /// directories are flushed after the rename; with less, the caller
    /// flushes a whole batch at once (``synchronizeFileSystem()``).
    public func replaceItem(at destination: String, withItemAt source: String, durability: WriteDurability = .full) throws {
        try rename(source, to: destination, replacing: true, flushing: durability == .full, action: "replace")
    }

    /// One confined `rename` for both: the parents are opened beneath the
    /// root and flushed after.
    private func rename(_ from: String, to: String, replacing: Bool, flushing: Bool, action: String) throws {
        let source = try ContainerPath(from)
        let destination = try ContainerPath(to)
        try checkWritable(source, action: action)
        try checkWritable(destination, action: action)
        let sourceParent = try directory.openParent(source, action: action)
        defer { sourceParent.closeQuietly() }
        try directory.withParent(destination, action: action) { parent, name throws(ContainerError) in
            do throws(FileSystemError) {
                try sourceParent.rename(source.name, to: parent, name, replace: replacing)
                if flushing {
                    try? parent.sync()
                    try? sourceParent.sync()
                }
            } catch {
                if error.isNotFound, (try? sourceParent.status(of: source.name)) == nil {
                    throw directory.failure(error, source, action)
                }
                throw directory.failure(error, destination, action)
            }
        }
        try exclusionRecordMove(from: source, to: destination)
    }
}
