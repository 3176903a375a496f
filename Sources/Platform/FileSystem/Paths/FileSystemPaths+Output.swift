#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

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
