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
    /// on Linux drops the flag); each file is written as durably as
    /// ``writeAtomically(_:to:durability:)`` writes by default.
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
            let options = TreeCopyOptions(durability: .full) { item throws(FileSystemError) in
                let from = item.path.isEmpty ? source : source.appending(item.path)
                if (try? exclusionFlag(of: item.source, from)) == true {
                    try setExclusionFlag(item.copy, path: item.path.isEmpty ? destination : destination.appending(item.path), true)
                }
            }
            do throws(FileSystemError) {
                counter.add(Int(clamping: try sourceParent.copyTree(source.name, to: parent, name, options: options)))
            } catch {
                // The error's path runs from the source's parent: `name/…`.
                throw directory.failure(error, source.sibling(error.path), "copy")
            }
        }
    }
}
