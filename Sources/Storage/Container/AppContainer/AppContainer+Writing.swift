import FileSystem
import SystemPackage
import Foundation

/// Atomic writes and copies.
extension AppContainer {
    /// Replaces the file at `path` so that readers, and the file after a
    /// crash or power cut, see either the complete old content or the
    /// complete new one: the bytes go to a temporary file in the same
    /// directory, which is flushed, renamed over `path`, and the directory is
    /// flushed so the rename itself is durable (``FileDescriptor/replaceAtomically(_:options:_:)``).
    /// The old file's permissions and extended attributes, the
    /// do-not-back-up flag among them, carry over. On failure (disk full,
    /// file-size limit) the old content is intact and no temporary file
    /// is left.
    ///
    /// A lower `durability` skips flushes: ``Durability/fileOnly`` flushes
    /// the file only, ``Durability/none`` (``Durability/processCrashSafe``)
    /// nothing; both stay atomic for readers and for a crash of the process
    /// (see ``WriteDurability``).
    public func writeAtomically(_ data: Data, to path: String, durability: WriteDurability = .full) throws {
        let path = try ContainerPath(path)
        try checkWritable(path, action: "write")
        try directory.withParent(path, action: "write") { parent, name throws(ContainerError) in
            do throws(FileSystemError) {
                try parent.replaceAtomically(name, options: AtomicWriteOptions(durability: durability, keepsExtendedAttributes: true)) {
                    file throws(FileSystemError) in try file.writeFully(data)
                }
            } catch {
                throw directory.failure(error, path, "write")
            }
        }
        counter.add(data.count)
    }

    /// Copies a file, link or directory tree; the destination must not
    /// exist. Permissions and the do-not-back-up flag are copied (Foundation
    /// on Linux drops the flag).
    public func copyItem(_ from: String, to: String) throws {
        let source = try ContainerPath(from)
        let destination = try ContainerPath(to)
        try checkWritable(destination, action: "copy")
        let sourceParent = try directory.openParent(source, action: "copy")
        defer { sourceParent.closeQuietly() }
        try directory.withParent(destination, action: "copy") { parent, name throws(ContainerError) in
            if (try? parent.status(of: name)) != nil {
                throw ContainerError(.alreadyExists, path: destination.text, "cannot copy: the destination exists")
            }
            try copyTree(sourceParent, source.name, source, to: parent, name, destination)
        }
    }

    private func copyTree(_ fromParent: FileDescriptor, _ fromName: String, _ fromPath: ContainerPath,
                          to toParent: FileDescriptor, _ toName: String, _ toPath: ContainerPath) throws(ContainerError) {
        let info: FileStatus
        do { info = try fromParent.status(of: fromName) } catch { throw directory.failure(error, fromPath, "copy") }
        let excluded = (try? exclusionFlag(fromParent, fromName, fromPath)) ?? false
        if info.isSymbolicLink {
            do { try toParent.makeSymbolicLink(toName, target: try fromParent.readLink(fromName)) }
            catch { throw ContainerError(error, path: toPath.text, "copy a link") }
            return
        }
        if info.isDirectory {
            try copyDirectory(fromParent, fromName, fromPath, to: toParent, toName, toPath,
                              permissions: info.permissions, excluded: excluded)
            return
        }
        let input: FileDescriptor
        do { input = try fromParent.open(fromName, .readOnly, options: .noFollow) }
        catch { throw directory.failure(error, fromPath, "copy") }
        defer { input.closeQuietly() }
        var copied: UInt64 = 0
        let options = AtomicWriteOptions(durability: .full, permissions: info.permissions, replacesExisting: false)
        do {
            try toParent.replaceAtomically(toName, options: options) { output throws(FileSystemError) in
                copied = try input.copyContents(to: output)
                if excluded { try setExclusionFlag(output, path: toPath, true) }
            }
        } catch {
            throw ContainerError(error, path: toPath.text, "write")
        }
        counter.add(Int(clamping: copied))
    }

    private func copyDirectory(_ fromParent: FileDescriptor, _ fromName: String, _ fromPath: ContainerPath,
                               to toParent: FileDescriptor, _ toName: String, _ toPath: ContainerPath,
                               permissions: UInt32, excluded: Bool) throws(ContainerError) {
        let from: FileDescriptor
        let to: FileDescriptor
        do {
            try toParent.makeDirectory(toName, permissions: permissions)
            from = try fromParent.openDirectory(fromName)
        } catch { throw ContainerError(error, path: toPath.text, "copy") }
        defer { from.closeQuietly() }
        do { to = try toParent.openDirectory(toName) } catch { throw ContainerError(error, path: toPath.text, "copy") }
        defer { to.closeQuietly() }
        let children: [String]
        do {
            if excluded { try setExclusionFlag(to, path: toPath, true) }
            children = try from.sortedEntries()
        } catch { throw ContainerError(error, path: toPath.text, "copy") }
        for child in children {
            try copyTree(from, child, fromPath.appending(child), to: to, child, toPath.appending(child))
        }
        try? to.sync()
    }
}
