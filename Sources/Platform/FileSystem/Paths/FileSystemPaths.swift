import Foundation
import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The file system's capacity, as `statvfs` reports it
/// (``FileSystemPaths/space(atPath:)`` makes it).
public struct FileSystemSpace: Sendable, Hashable {
    /// The size of the file system, in bytes.
    public var total: UInt64
    /// The bytes an unprivileged process may still write.
    public var available: UInt64
}

/// Operations on paths for what is not beneath a held directory: the
/// roots themselves (where devices and backups live, a file named on the
/// command line). Each opens the parent directory and works with `*at`
/// calls from there, so the last component is never followed where the
/// operation says it is not.
public enum FileSystemPaths {
    /// A path's parent directory and last component ("." for a bare name).
    public static func split(_ path: String) -> (directory: String, name: String) {
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return (".", trimmed) }
        let directory = slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
        return (directory, String(trimmed[trimmed.index(after: slash)...]))
    }

    /// Runs `body` with the open parent directory of `path` and its last component.
    public static func withParent<T>(of path: String,
                                     _ body: (FileDescriptor, String) throws(FileSystemError) -> T) throws(FileSystemError) -> T {
        let (directory, name) = split(path)
        let parent: FileDescriptor
        do { parent = try FileDescriptor.openDirectory(atPath: directory) } catch { throw error.with(path: path) }
        defer { parent.closeQuietly() }
        do { return try body(parent, name) } catch { throw error.with(path: path) }
    }

    /// `lstat` (or `stat` with `followLinks`); nil when nothing is there.
    public static func status(atPath path: String, followLinks: Bool = false) throws(FileSystemError) -> FileStatus? {
        var info = CStat()
        let result = followLinks ? stat(path, &info) : lstat(path, &info)
        guard result == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw FileSystemError(currentErrno, "read the status of", path: path)
        }
        return FileStatus(info)
    }

    /// Whether anything, a link included, is at `path`.
    public static func exists(atPath path: String) -> Bool { ((try? status(atPath: path)) ?? nil) != nil }

    /// Whether `path` is a directory (a link is not).
    public static func isDirectory(atPath path: String) -> Bool {
        ((try? status(atPath: path)) ?? nil)?.isDirectory ?? false
    }

    /// Whether `path` is a regular file (links followed).
    public static func isRegularFile(atPath path: String) -> Bool {
        ((try? status(atPath: path, followLinks: true)) ?? nil)?.isRegularFile ?? false
    }

    /// Creates `path` and its missing parents.
    public static func makeDirectories(atPath path: String, permissions: UInt32 = 0o755) throws(FileSystemError) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            current += "/" + part
            if mkdir(current, mode_t(permissions)) != 0 && errno != EEXIST {
                throw FileSystemError(currentErrno, "create the directory", path: current)
            }
        }
    }

    /// The whole file at `path` (links followed), or nil when it does not exist.
    public static func readFile(atPath path: String, mappedAbove threshold: Int = .max) throws(FileSystemError) -> Data? {
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(atPath: path, .readOnly) } catch {
            if error.isNotFound { return nil }
            throw error
        }
        defer { fd.closeQuietly() }
        do { return try fd.readAll(mappedAbove: threshold) } catch { throw error.with(path: path) }
    }

    /// Replaces the file at `path` atomically (see
    /// ``FileDescriptor/replaceAtomically(_:options:_:)``).
    // Inlinable so that the write is specialized for the caller's bytes
    // (generic, it looks up `Bytes`' metadata on every call).
    @inlinable
    public static func writeAtomically<Bytes: DataProtocol>(_ bytes: Bytes, toPath path: String,
                                                            options: AtomicWriteOptions = AtomicWriteOptions()) throws(FileSystemError) {
        try withParent(of: path) { parent, name throws(FileSystemError) in
            try parent.writeAtomically(bytes, to: name, options: options)
        }
    }

    /// Replaces the file at `path` atomically with what `fill` writes to
    /// the open new file (see ``FileDescriptor/replaceAtomically(_:options:_:)``),
    /// for a writer that makes its bytes as it goes.
    public static func replaceAtomically(atPath path: String, options: AtomicWriteOptions = AtomicWriteOptions(),
                                         _ fill: (FileDescriptor) throws(FileSystemError) -> Void) throws(FileSystemError) {
        try withParent(of: path) { parent, name throws(FileSystemError) in
            try parent.replaceAtomically(name, options: options, fill)
        }
    }

    /// Renames `source` to `destination` (replacing a file or an empty directory there).
    public static func rename(atPath source: String, to destination: String) throws(FileSystemError) {
        guard c_rename(source, destination) == 0 else { throw FileSystemError(currentErrno, "rename", path: source) }
    }

    /// Swaps two existing paths in one step; false where the system cannot.
    public static func exchange(atPath first: String, _ second: String) throws(FileSystemError) -> Bool {
        let cwd = FileDescriptor(rawValue: AT_FDCWD)
        return try cwd.exchange(first, second)
    }

    /// Removes the file at `path`; a missing one is fine.
    public static func removeFile(atPath path: String) throws(FileSystemError) {
        guard c_unlink(path) == 0 || errno == ENOENT else { throw FileSystemError(currentErrno, "remove", path: path) }
    }

    /// Removes the tree at `path` (a file, link or directory), never
    /// following a link; a missing one, or one whose parent is missing, is
    /// an empty tally.
    @discardableResult
    public static func removeTree(atPath path: String) throws(FileSystemError) -> TreeTally {
        do {
            return try withParent(of: path) { parent, name throws(FileSystemError) in try parent.removeTree(name) }
        } catch where error.isNotFound || error.isNotDirectory {
            return TreeTally()
        }
    }

    /// Removes what the directory at `path` holds, keeping it; a missing
    /// directory is an empty tally.
    public static func removeContents(atPath path: String, every: Int = 4096,
                                      progress: ((TreeTally) -> Void)? = nil) throws(FileSystemError) -> TreeTally {
        guard let directory = try openDirectoryIfPresent(path) else { return TreeTally() }
        defer { directory.closeQuietly() }
        do { return try directory.removeContents(every: every, progress: progress) } catch { throw error.with(path: path) }
    }

    /// What the directory at `path` holds, with its disk usage; a missing
    /// directory is an empty tally.
    public static func measureTree(atPath path: String) throws(FileSystemError) -> TreeTally {
        guard let directory = try openDirectoryIfPresent(path) else { return TreeTally() }
        defer { directory.closeQuietly() }
        do { return try directory.measureTree() } catch { throw error.with(path: path) }
    }

    /// The names in the directory at `path`, bytewise sorted; a missing one is empty.
    ///
    /// - Parameter followLinks: whether a link at `path` is followed, as a
    ///   path a person typed is; then something there that is not a
    ///   directory is `ENOTDIR`. Otherwise a link, or anything else that is
    ///   not a directory, is empty too.
    public static func entries(atPath path: String, followLinks: Bool = false) throws(FileSystemError) -> [String] {
        guard let directory = try openDirectoryIfPresent(path, followLinks: followLinks) else { return [] }
        defer { directory.closeQuietly() }
        do { return try directory.sortedEntries() } catch { throw error.with(path: path) }
    }

    /// The target of the link at `path`.
    public static func readLink(atPath path: String) throws(FileSystemError) -> String {
        try withParent(of: path) { parent, name throws(FileSystemError) in try parent.readLink(name) }
    }

    /// Flushes the directory at `path` (best effort: some file systems refuse).
    public static func syncDirectory(atPath path: String) {
        guard let fd = try? FileDescriptor.openDirectory(atPath: path) else { return }
        try? fd.sync()
        fd.closeQuietly()
    }

    /// The capacity of the file system holding `path`.
    public static func space(atPath path: String) throws(FileSystemError) -> FileSystemSpace {
        var info = CStatVFS()
        guard statvfs(path, &info) == 0 else { throw FileSystemError(currentErrno, "read the capacity of", path: path) }
        return FileSystemSpace(info)
    }

    private static func openDirectoryIfPresent(_ path: String, followLinks: Bool = false) throws(FileSystemError) -> FileDescriptor? {
        do { return try FileDescriptor.openDirectory(atPath: path, followLinks: followLinks) } catch {
            if error.isNotFound || (error.isNotDirectory && !followLinks) { return nil }
            throw error
        }
    }
}

extension FileSystemPaths {
    /// Whether this process may execute the file at `path` (`access(X_OK)`,
    /// links followed), as a launcher checks a program before spawning it.
    public static func isExecutable(atPath path: String) -> Bool {
        access(path, X_OK) == 0
    }
}

/// How a command's named output (`-o FILE`, `--html FILE`) is written: the
/// one rule every command follows, as `plutil -o` does.
///
/// - A regular file, or a name where nothing is yet, is replaced
///   atomically (its final symbolic links followed, so a link keeps
///   working): a reader sees the whole old file or the whole new one.
/// - A character device, a FIFO or a socket is written through, never
///   replaced: `-o /dev/null` discards the output and `/dev/null` stays
///   the device it was; `-o fifo` feeds the process reading it.
/// - Anything else (a directory, a block device) is refused before a byte
///   is written: writing a disk's device node is never what `-o` meant.
public enum OutputDestination: Sendable, Hashable {
    /// Replaced atomically at this path (the named path with its final
    /// links followed).
    case replacedFile(path: String)
    /// Written through: a character device, a FIFO or a socket.
    case stream(FileStatus)

    /// Where output to `path` goes, by what is there now (links followed).
    public static func of(path: String) throws(FileSystemError) -> OutputDestination {
        guard let followed = try FileSystemPaths.status(atPath: path, followLinks: true) else {
            return .replacedFile(path: try FileSystemPaths.finalTarget(of: path))
        }
        if followed.isRegularFile { return .replacedFile(path: try FileSystemPaths.finalTarget(of: path)) }
        if followed.isCharacterDevice || followed.isFIFO || followed.isSocket { return .stream(followed) }
        throw FileSystemError(followed.isDirectory ? .isDirectory : .fileExists,
                              "write output to (it is \(followed.kindDescription))", path: path)
    }
}

extension FileSystemPaths {
    /// Writes a command's output to `path` by the output rule
    /// (``OutputDestination``): `fill` gets the descriptor to write to, a
    /// new file beside a regular one (renamed over it when `fill` returns,
    /// flushed as `durability` says) or the device, FIFO or socket itself.
    /// When `fill` throws, a regular file is left as it was; what a stream
    /// was given stays given.
    public static func writeOutput(toPath path: String, durability: Durability = .full,
                                   _ fill: (FileDescriptor) throws(FileSystemError) -> Void) throws(FileSystemError) {
        switch try OutputDestination.of(path: path) {
        case .replacedFile(let target):
            try replaceAtomically(atPath: target, options: AtomicWriteOptions(durability: durability), fill)
        case .stream(let seen):
            let stream = try openStream(atPath: path, seen: seen)
            defer { stream.closeQuietly() }
            do { try fill(stream) } catch { throw error.with(path: path) }
        }
    }

    /// `path` with its final symbolic links followed (a relative target is
    /// relative to the link's directory); `path` itself when it is no link.
    /// A chain of more than 40 links is `ELOOP`, as the kernel's own limit.
    public static func finalTarget(of path: String) throws(FileSystemError) -> String {
        var current = path
        for _ in 0..<40 {
            guard let info = try status(atPath: current), info.isSymbolicLink else { return current }
            let target = try readLink(atPath: current)
            current = target.hasPrefix("/") ? target : split(current).directory + "/" + target
        }
        throw FileSystemError(.tooManySymbolicLinkLevels, "follow the links of", path: path)
    }

    /// Opens the device, FIFO or socket at `path` for writing: a FIFO waits
    /// for its reader, as any writer of one does; a socket is connected
    /// (`AF_UNIX`, stream). The opened file must be the one `seen`: one
    /// swapped meanwhile for a regular file is `ESTALE`, never written in
    /// place.
    private static func openStream(atPath path: String, seen: FileStatus) throws(FileSystemError) -> FileDescriptor {
        let stream = seen.isSocket ? try connectLocalSocket(atPath: path)
            : try FileDescriptor.open(atPath: path, .writeOnly, options: [.noControllingTerminal])
        do throws(FileSystemError) {
            let opened = try stream.status()
            // A connected socket is a new inode; the check is by type there.
            let same = seen.isSocket ? opened.isSocket : opened.isSameFile(as: seen)
            guard same, opened.isCharacterDevice || opened.isFIFO || opened.isSocket else {
                throw FileSystemError(.staleNFSFileHandle, "write output to (it changed while it was opened)", path: path)
            }
            return stream
        } catch {
            stream.closeQuietly()
            throw error.with(path: path)
        }
    }

    /// A stream socket connected to the local socket at `path`.
    private static func connectLocalSocket(atPath path: String) throws(FileSystemError) -> FileDescriptor {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        let bytes = Array(path.utf8)
        guard bytes.count < capacity else { throw FileSystemError(.fileNameTooLong, "connect to the socket", path: path) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        #if canImport(Darwin)
        let kind = SOCK_STREAM
        #else
        let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #endif
        let socketDescriptor = try check(socket(AF_UNIX, kind, 0), "connect to the socket", path)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                retryingOnInterrupt { connect(socketDescriptor, generic, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
        }
        guard connected == 0 else {
            let failure = FileSystemError(currentErrno, "connect to the socket", path: path)
            _ = c_close(socketDescriptor)
            throw failure
        }
        return FileDescriptor(rawValue: socketDescriptor)
    }
}
