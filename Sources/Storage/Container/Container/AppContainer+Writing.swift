import Foundation

/// Atomic writes and copies.
extension AppContainer {
    /// Replaces the file at `path` so that readers, and the file after a
    /// crash or power cut, see either the complete old content or the
    /// complete new one: the bytes go to a temporary file in the same
    /// directory, which is flushed, renamed over `path`, and the directory is
    /// flushed so the rename itself is durable. The old file's permissions
    /// and do-not-back-up flag carry over. On failure (disk full, file-size
    /// limit) the old content is intact.
    ///
    /// With `durability` ``WriteDurability/processCrashSafe`` the two
    /// flushes are skipped: still atomic for readers and for a crash of the
    /// process, not for a power loss (see ``WriteDurability``).
    public func writeAtomically(_ data: Data, to path: String, durability: WriteDurability = .full) throws {
        let path = try ContainerPath(path)
        try checkWritable(path, action: "write")
        try directory.withParent(path, action: "write") { parent, name throws(ContainerError) in
            var mode: UInt32 = 0o644
            var excluded = false
            if let existing = try? Platform.stat(parent, name) {
                if existing.isDirectory {
                    throw ContainerError(.isDirectory, path: path.text, "cannot write: a directory is in the way")
                }
                if existing.isRegularFile {
                    mode = existing.mode & 0o7777
                    excluded = (try? exclusionFlag(parent, name, path)) ?? false
                }
            }
            try replaceAtomically(parent, name, path, mode: mode, excluded: excluded,
                                  durability: durability) { fd throws(SystemFailure) in
                try Platform.write(fd, data)
            }
        }
        counter.add(data.count)
    }

    /// Writes a temporary file in `parent` with `fill`, flushes it, renames
    /// it over `name` (or, when `replace` is false, fails if `name` exists)
    /// and flushes the directory; ``WriteDurability/processCrashSafe``
    /// skips both flushes. The temporary file never survives a failure.
    func replaceAtomically(_ parent: Platform.Descriptor, _ name: String, _ path: ContainerPath,
                           mode: UInt32, excluded: Bool, replace: Bool = true, durability: WriteDurability = .full,
                           _ fill: (Platform.Descriptor) throws(SystemFailure) -> Void) throws(ContainerError) {
        var temporary = ""
        var fd: Platform.Descriptor = -1
        for _ in 0..<8 {
            // Short fixed-length names: the target's own name may already be
            // at the 255-byte limit.
            temporary = ".sb-\(Platform.randomSuffix()).tmp"
            do {
                fd = try Platform.openAt(parent, temporary, flags: Platform.writeOnly | Platform.create | Platform.exclusive,
                                         mode: 0o600)
                break
            } catch {
                if !Platform.isExists(error.errno) { throw directory.failure(error, path, "create a temporary file") }
            }
        }
        guard fd >= 0 else { throw ContainerError(.alreadyExists, path: path.text, "cannot create a temporary file") }
        var renamed = false
        defer {
            if fd >= 0 { Platform.close(fd) }
            if !renamed { try? Platform.unlink(parent, temporary, directory: false) }
        }
        do throws(SystemFailure) {
            Platform.changeMode(fd, mode)
            try fill(fd)
            if excluded { try setExclusionFlag(fd, path: path, true) }
            // The portable order: the file (data and inode) is on the disk
            // before its name can change, and the rename after it. Flushing
            // later, or only the data, is cheaper on a journaled file system
            // but not on one without a journal, where the directory block
            // may reach the disk before the new inode does.
            if durability == .full { try Platform.sync(fd) }
            Platform.close(fd)
            fd = -1
            if durability == .processCrashSafe, replace, try Platform.exchange(parent, temporary, name) {
                // Swapping the names, then removing the old file under the
                // temporary name, is as atomic for readers as a rename over
                // it, and skips the writeback ext4 starts (auto_da_alloc)
                // when a rename replaces a file, which is most of a rename's
                // cost; that writeback only matters for a power loss, which
                // this level does not promise to survive.
                renamed = true
                try? Platform.unlink(parent, temporary, directory: false)
            } else {
                try Platform.rename(parent, temporary, parent, name, replace: replace)
                renamed = true
            }
            if durability == .full { try Platform.sync(parent) }
        } catch {
            throw ContainerError(error, path: path.text, "write")
        }
    }

    /// Copies a file, link or directory tree; the destination must not
    /// exist. Permissions and the do-not-back-up flag are copied (Foundation
    /// on Linux drops the flag).
    public func copyItem(_ from: String, to: String) throws {
        let source = try ContainerPath(from)
        let destination = try ContainerPath(to)
        try checkWritable(destination, action: "copy")
        let sourceParent = try directory.openParent(source, action: "copy")
        defer { Platform.close(sourceParent) }
        try directory.withParent(destination, action: "copy") { parent, name throws(ContainerError) in
            if (try? Platform.stat(parent, name)) != nil {
                throw ContainerError(.alreadyExists, path: destination.text, "cannot copy: the destination exists")
            }
            try copyTree(sourceParent, source.name, source, to: parent, name, destination)
        }
    }

    private func copyTree(_ fromParent: Platform.Descriptor, _ fromName: String, _ fromPath: ContainerPath,
                          to toParent: Platform.Descriptor, _ toName: String, _ toPath: ContainerPath) throws(ContainerError) {
        let info: PlatformStat
        do { info = try Platform.stat(fromParent, fromName) } catch { throw directory.failure(error, fromPath, "copy") }
        let excluded = (try? exclusionFlag(fromParent, fromName, fromPath)) ?? false
        if info.isSymbolicLink {
            do {
                let target = try Platform.readLink(fromParent, fromName)
                try Platform.symbolicLink(target, toParent, toName)
            } catch { throw ContainerError(error, path: toPath.text, "copy a link") }
            return
        }
        if info.isDirectory {
            do {
                try Platform.makeDirectory(toParent, toName, mode: info.mode & 0o7777)
                let from = try Platform.openAt(fromParent, fromName, flags: Platform.directoryFlags | Platform.noFollow)
                defer { Platform.close(from) }
                let to = try Platform.openAt(toParent, toName, flags: Platform.directoryFlags | Platform.noFollow)
                defer { Platform.close(to) }
                if excluded { try setExclusionFlag(to, path: toPath, true) }
                for child in try Platform.listDirectory(from).sorted() {
                    try copyTree(from, child, fromPath.appending(child), to: to, child, toPath.appending(child))
                }
                try? Platform.sync(to)
            } catch let error as SystemFailure {
                throw ContainerError(error, path: toPath.text, "copy")
            } catch let error as ContainerError {
                throw error
            } catch {
                throw ContainerError(.io(errno: 0), path: toPath.text, "cannot copy: \(error)")
            }
            return
        }
        let input: Platform.Descriptor
        do { input = try Platform.openAt(fromParent, fromName, flags: Platform.readOnly | Platform.noFollow) }
        catch { throw directory.failure(error, fromPath, "copy") }
        defer { Platform.close(input) }
        var copied = 0
        try replaceAtomically(toParent, toName, toPath, mode: info.mode & 0o7777, excluded: excluded, replace: false) { output throws(SystemFailure) in
            let chunk = 1 << 20
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
            defer { buffer.deallocate() }
            while true {
                let count = try Platform.read(input, into: buffer, at: nil)
                if count == 0 { break }
                try Platform.write(output, UnsafeRawBufferPointer(rebasing: buffer[0..<count]), at: nil)
                copied += count
                if count < chunk { break }
            }
        }
        counter.add(copied)
    }
}
