#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// One item met by a tree walk: where it is and what `lstat` said of it
/// when the walk saw it.
public struct TreeEntry: Sendable, Hashable {
    /// The path of the directory that holds it, relative to the walk's
    /// start (`""` for the start itself): shared by the directory's entries,
    /// so a walk makes no string per entry.
    public var directoryPath: String
    /// The last component.
    public var name: String
    /// The path relative to the walk's start, components joined by "/"
    /// (made on each use).
    public var path: String { directoryPath.isEmpty ? name : directoryPath + "/" + name }
    /// The status seen by the walk (links not followed). A later open
    /// checks the inode against it (``FileDescriptor/openSeen(_:as:)``).
    public var status: FileStatus
    /// How many directories down from the walk's start the entry is (0 for
    /// what the start directory holds itself): a visitor that keeps
    /// something per directory closes a directory's record when an entry
    /// comes back up to its depth, with no path to compare.
    public var depth: Int = 0
    /// Whether the entry's name, or the name of a directory above it, is
    /// not valid UTF-8 on disk: ``name`` and ``path`` then show U+FFFD in
    /// place of the bad bytes and cannot be used to reach it (the open
    /// directory the walk hands over with the entry can, for everything
    /// but its own name). Only a walk that asks for them
    /// (``RepairedNames/visit``) meets such entries.
    public var hasRepairedName: Bool = false
}

/// What a walk does with a name that is not valid UTF-8 (Linux allows any
/// bytes but "/" and NUL; iOS's file systems allow only UTF-8).
public enum RepairedNames: Sendable {
    /// Stop with `EILSEQ`, naming where: a walk whose caller would look
    /// items up by name never loses one silently.
    case refuse
    /// Visit it, with ``TreeEntry/hasRepairedName`` set: its status is
    /// read by its bytes, and a directory is entered by its bytes.
    case visit
}

/// What a walk does after visiting a directory.
public enum TreeWalkDecision: Sendable {
    /// Visit what the directory holds.
    case descend
    /// Leave it out, with all it holds.
    case skip
}

/// Totals of a tree walk: files and links, directories, and the disk blocks
/// they held, in bytes.
public struct TreeTally: Sendable, Equatable {
    public var files: Int = 0
    public var directories: Int = 0
    public var bytes: UInt64 = 0

    public init(files: Int = 0, directories: Int = 0, bytes: UInt64 = 0) {
        self.files = files
        self.directories = directories
        self.bytes = bytes
    }

    public static func + (lhs: TreeTally, rhs: TreeTally) -> TreeTally {
        TreeTally(files: lhs.files + rhs.files, directories: lhs.directories + rhs.directories, bytes: lhs.bytes + rhs.bytes)
    }
}

extension FileDescriptor {
    /// Walks the tree beneath this directory, depth first, names in bytewise
    /// order, never following a symbolic link: each directory is opened
    /// from its parent's descriptor with `O_NOFOLLOW`, and one that was
    /// swapped for something else since its `lstat` is not entered (it is
    /// not the directory that was seen). `visit` gets each entry and the
    /// open directory that holds it; its answer for a directory decides
    /// whether the walk enters it.
    ///
    /// A name that is not valid UTF-8 stops the walk with `EILSEQ` unless
    /// `repairedNames` is ``RepairedNames/visit``.
    public func walkTree(repairedNames: RepairedNames = .refuse,
                         _ visit: (TreeEntry, FileDescriptor) throws(FileSystemError) -> TreeWalkDecision) throws(FileSystemError) {
        try walkTree(prefix: "", depth: 0, underRepairedName: false, repairedNames: repairedNames, visit)
    }

    private func walkTree(prefix: String, depth: Int, underRepairedName: Bool, repairedNames: RepairedNames,
                          _ visit: (TreeEntry, FileDescriptor) throws(FileSystemError) -> TreeWalkDecision) throws(FileSystemError) {
        for name in try sortedEntryNames() {
            if name.isRepaired && repairedNames == .refuse {
                throw FileSystemError(.illegalByteSequence, "walk (a name that is not valid UTF-8, shown with U+FFFD)",
                                      path: prefix.isEmpty ? name.name : prefix + "/" + name.name)
            }
            guard let info = try statusIfPresent(of: name) else { continue }  // removed meanwhile
            let repaired = underRepairedName || name.isRepaired
            let entry = TreeEntry(directoryPath: prefix, name: name.name, status: info, depth: depth, hasRepairedName: repaired)
            let decision = try visit(entry, self)
            guard info.isDirectory, decision == .descend else { continue }
            let child: FileDescriptor
            do { child = try openDirectory(name) } catch {
                // Gone, or replaced by a link or a file since the lstat.
                if error.isNotFound || error.isLoop || error.isNotDirectory { continue }
                throw error.with(path: entry.path)
            }
            defer { child.closeQuietly() }
            guard let opened = try? child.status(), opened.isSameFile(as: info) else { continue }
            try child.walkTree(prefix: entry.path, depth: depth + 1, underRepairedName: repaired, repairedNames: repairedNames, visit)
        }
    }

    /// Opens the regular file `name` of this directory for reading, only if
    /// it is still the file a walk saw: no link is followed, and the opened
    /// file's device, inode and type must match `seen`. A file swapped
    /// meanwhile (for a link, a hard link to something else, a directory) is
    /// `ESTALE`, so its content is never read in place of the one scanned.
    public func openSeen(_ name: String, as seen: FileStatus) throws(FileSystemError) -> FileDescriptor {
        let fd = try open(name, .readOnly, options: [.noFollow, .nonBlocking])
        do throws(FileSystemError) {
            let opened = try fd.status()
            guard opened.isSameFile(as: seen), opened.isRegularFile, seen.isRegularFile else {
                throw FileSystemError(.staleNFSFileHandle, "read (it changed since it was scanned)", path: name)
            }
            return fd
        } catch {
            fd.closeQuietly()
            throw error
        }
    }

    // MARK: Removing and measuring

    /// Removes everything in this directory, keeping it, and tallies what
    /// went. `progress` is called every `every` entries.
    public func removeContents(every: Int = 4096, progress: ((TreeTally) -> Void)? = nil) throws(FileSystemError) -> TreeTally {
        var tally = TreeTally()
        try removeContents(tally: &tally, every: every, progress: progress)
        return tally
    }

    /// Removes `name` of this directory and everything below it, never
    /// following a link; a missing one is an empty tally.
    public func removeTree(_ name: String) throws(FileSystemError) -> TreeTally {
        guard let info = try statusIfPresent(of: name) else { return TreeTally() }
        guard info.isDirectory else {
            try removeIfPresent(name)
            return TreeTally(files: 1, directories: 0, bytes: info.allocatedBytes)
        }
        let child = try openDirectory(name)
        var tally: TreeTally
        do { tally = try child.removeContents() } catch { child.closeQuietly(); throw error }
        child.closeQuietly()
        try removeIfPresent(name, directory: true)
        tally.directories += 1
        return tally
    }

    /// The files, links and directories below this directory with their
    /// disk usage, changing nothing.
    public func measureTree() throws(FileSystemError) -> TreeTally {
        var tally = TreeTally()
        try measure(tally: &tally)
        return tally
    }

    private func removeContents(tally: inout TreeTally, every: Int, progress: ((TreeTally) -> Void)?) throws(FileSystemError) {
        // Entries already returned may be unlinked while the stream is
        // open; a second pass catches any a file system skipped.
        var pass = 0
        while true {
            pass += 1
            let removedBefore = tally.files + tally.directories
            var seen = false
            try forEachEntry { name throws(FileSystemError) in
                seen = true
                var info = CStat()
                guard fstatat(rawValue, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
                    if errno == ENOENT { return }
                    throw FileSystemError(currentErrno, "read the status of", path: String(cString: name))
                }
                if info.st_mode & S_IFMT == S_IFDIR {
                    let child = openat(rawValue, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                    guard child >= 0 else { throw FileSystemError(currentErrno, "open", path: String(cString: name)) }
                    defer { _ = c_close(child) }
                    try FileDescriptor(rawValue: child).removeContents(tally: &tally, every: every, progress: progress)
                    guard unlinkat(rawValue, name, AT_REMOVEDIR) == 0 || errno == ENOENT else {
                        throw FileSystemError(currentErrno, "remove", path: String(cString: name))
                    }
                    tally.directories += 1
                } else {
                    guard unlinkat(rawValue, name, 0) == 0 || errno == ENOENT else {
                        throw FileSystemError(currentErrno, "remove", path: String(cString: name))
                    }
                    tally.files += 1
                    tally.bytes += UInt64(max(0, info.st_blocks)) * 512
                }
                if let progress, (tally.files + tally.directories) % every == 0 { progress(tally) }
            }
            if !seen || tally.files + tally.directories == removedBefore || pass >= 4 { return }
        }
    }

    private func measure(tally: inout TreeTally) throws(FileSystemError) {
        try forEachEntry { name throws(FileSystemError) in
            var info = CStat()
            guard fstatat(rawValue, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
                if errno == ENOENT { return }
                throw FileSystemError(currentErrno, "read the status of", path: String(cString: name))
            }
            if info.st_mode & S_IFMT == S_IFDIR {
                tally.directories += 1
                let child = openat(rawValue, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard child >= 0 else { throw FileSystemError(currentErrno, "open", path: String(cString: name)) }
                defer { _ = c_close(child) }
                try FileDescriptor(rawValue: child).measure(tally: &tally)
            } else {
                tally.files += 1
                tally.bytes += UInt64(max(0, info.st_blocks)) * 512
            }
        }
    }
}
