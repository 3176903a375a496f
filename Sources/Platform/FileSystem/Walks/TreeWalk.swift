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

    /// An entry as a walk would make it (for a caller that meets items one
    /// by one, say down a single path, and hands them to the same
    /// consumer as a walk's).
    public init(directoryPath: String, name: String, status: FileStatus, depth: Int = 0, hasRepairedName: Bool = false) {
        self.directoryPath = directoryPath
        self.name = name
        self.status = status
        self.depth = depth
        self.hasRepairedName = hasRepairedName
    }
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
        let walker = TreeWalker(repairedNames: repairedNames)
        try walker.run(self) { step throws(FileSystemError) in try visit(step.entry, step.parent) }
    }

    /// Opens the regular file `name` of this directory for reading, only if
    /// it is still the file a walk saw: no link is followed, and the opened
    /// file's device, inode and type must match `seen`. A file swapped
    /// meanwhile (for a link, a hard link to something else, a directory) is
    /// `ESTALE`, so its content is never read in place of the one scanned.
    public func openSeen(_ name: String, as seen: FileStatus) throws(FileSystemError) -> FileDescriptor {
        try openSeenWithStatus(name, as: seen).descriptor
    }

    /// ``openSeen(_:as:)``, with the status of the opened file (its size
    /// now, which may differ from the walk's): a caller that needs it makes
    /// no second `fstat`.
    public func openSeenWithStatus(_ name: String, as seen: FileStatus) throws(FileSystemError)
        -> (descriptor: FileDescriptor, status: FileStatus) {
        let fd = try open(name, .readOnly, options: [.noFollow, .nonBlocking])
        do throws(FileSystemError) {
            let opened = try fd.status()
            guard opened.isSameFile(as: seen), opened.isRegularFile, seen.isRegularFile else {
                throw FileSystemError(.staleNFSFileHandle, "read (it changed since it was scanned)", path: name)
            }
            return (fd, opened)
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
        tally.bytes += info.allocatedBytes
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
        // The names are read before any is removed, and the walk keeps no
        // paths, so any depth goes. A directory that is not empty when its
        // turn comes (an app writing meanwhile) is left for another pass.
        let walker = TreeWalker(makesPaths: false, repairedNames: .visit)
        var pass = 0
        while true {
            pass += 1
            let removedBefore = tally.files + tally.directories
            var notEmpty: FileSystemError?
            let counted = { (tally: TreeTally) in
                if let progress, (tally.files + tally.directories) % every == 0 { progress(tally) }
            }
            try walker.run(self, visit: { step throws(FileSystemError) in
                if step.entry.status.isDirectory { return .descend }
                try step.parent.removeEntry(step.name, directory: false)
                tally.files += 1
                tally.bytes += step.entry.status.allocatedBytes
                counted(tally)
                return .skip
            }, leave: { step, _ throws(FileSystemError) in
                do throws(FileSystemError) { try step.parent.removeEntry(step.name, directory: true) } catch {
                    guard error.isNotEmpty else { throw error }
                    notEmpty = error
                    return
                }
                tally.directories += 1
                // A directory's own blocks go with it, as `du` counts them.
                tally.bytes += step.entry.status.allocatedBytes
                counted(tally)
            })
            guard let notEmpty else { return }
            if tally.files + tally.directories == removedBefore || pass >= 4 { throw notEmpty }
        }
    }

    private func measure(tally: inout TreeTally) throws(FileSystemError) {
        let walker = TreeWalker(makesPaths: false, repairedNames: .visit)
        try walker.run(self) { step throws(FileSystemError) in
            let info = step.entry.status
            if info.isDirectory {
                tally.directories += 1
                return .descend
            }
            tally.files += 1
            tally.bytes += info.allocatedBytes
            return .skip
        }
    }

    /// Removes the entry `name` of this directory by its bytes when it is
    /// not UTF-8; one already gone is no failure.
    fileprivate func removeEntry(_ name: DirectoryEntryName, directory: Bool) throws(FileSystemError) {
        let flags = directory ? AT_REMOVEDIR : 0
        let result: Int32
        if let bytes = name.bytes {
            result = bytes.withUnsafeBufferPointer { buffer in Self.withCName(buffer) { unlinkat(rawValue, $0, flags) } }
        } else {
            result = unlinkat(rawValue, name.name, flags)
        }
        guard result == 0 || errno == ENOENT else { throw FileSystemError(currentErrno, "remove", path: name.name) }
    }
}
