#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

// Resolution beneath a held directory: a path string is never handed to the
// kernel from the process's working directory. Linux resolves with
// `openat2(RESOLVE_BENEATH)`; where the kernel lacks it, a component walk with
// `O_NOFOLLOW` at every step gives the same guarantee.
extension FileDescriptor {
    /// Whether this kernel has `openat2` (Linux 5.6+); probed once.
    public static let hasOpenat2: Bool = {
        #if os(Linux)
        let fd = openat2(AT_FDCWD, "/", flags: O_PATH_FLAG | O_DIRECTORY | O_CLOEXEC, mode: 0, resolve: 0)
        if fd >= 0 { _ = c_close(fd); return true }
        return errno != ENOSYS
        #else
        return false
        #endif
    }()

    /// Opens `path` beneath this directory. `path` is relative: components
    /// joined by "/" ("" is the directory itself). Symbolic links are
    /// followed only while they stay beneath; the final one only when
    /// `followFinal`. A path that would leave (an absolute link, a `..` above
    /// the start, a magic link) fails with `EXDEV` (``FileSystemError/isEscape``).
    public func openBeneath(_ path: String, _ access: AccessMode, options: OpenOptions = [],
                            permissions: UInt32 = 0o644, followFinal: Bool = true,
                            resolution: PathResolution = .automatic) throws(FileSystemError) -> FileDescriptor {
        let flags = Self.flags(access, options)
        do {
            return FileDescriptor(rawValue: try Self.openBeneath(rawValue, path, flags: flags, mode: permissions,
                                                                 followFinal: followFinal, resolution: resolution))
        } catch {
            throw FileSystemError(error, "open", path: path)
        }
    }

    /// Opens the directory at `path` beneath this one (links followed while
    /// they stay beneath).
    public func openDirectoryBeneath(_ path: String, resolution: PathResolution = .automatic) throws(FileSystemError) -> FileDescriptor {
        try openBeneath(path, .readOnly, options: .directory, resolution: resolution)
    }

    static func openBeneath(_ root: Int32, _ path: String, flags: Int32, mode: UInt32,
                            followFinal: Bool, resolution: PathResolution) throws(Errno) -> Int32 {
        if path.isEmpty {
            let fd = openFile(root, ".", flags & ~(O_CREAT | O_EXCL | O_TRUNC | O_NOFOLLOW))
            guard fd >= 0 else { throw currentErrno }
            return fd
        }
        #if os(Linux)
        if resolution == .automatic && hasOpenat2 {
            var attempts = 0
            while true {
                let fd = openat2(root, path, flags: flags | (followFinal ? 0 : O_NOFOLLOW), mode: mode,
                                 resolve: resolveBeneath | resolveNoMagicLinks)
                if fd >= 0 { return fd }
                // EAGAIN: a concurrent rename disturbed the lookup; the
                // kernel asks for a retry rather than risk a wrong answer.
                if errno == EAGAIN && attempts < 16 { attempts += 1; continue }
                throw currentErrno
            }
        }
        #endif
        let components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        return try walkBeneath(root, components, flags: flags, mode: mode, followFinal: followFinal)
    }

    /// The user-space equivalent of `RESOLVE_BENEATH`. The kernel never
    /// follows a link here: every step is `openat(O_NOFOLLOW)`; links are read
    /// with `readlinkat` and their text spliced into the remaining path, and
    /// ".." pops this walk's own stack, so a directory moved elsewhere by
    /// another process cannot lead out of the root.
    static func walkBeneath(_ root: Int32, _ components: [String], flags: Int32, mode: UInt32,
                            followFinal: Bool) throws(Errno) -> Int32 {
        var pending = Array(components.reversed())  // a stack: last element is next
        var stack: [Int32] = []                     // descriptors we own, deepest last
        var links = 0
        defer { for fd in stack { _ = c_close(fd) } }
        var current: Int32 { stack.last ?? root }

        while let name = pending.popLast() {
            if name.isEmpty || name == "." { continue }
            if name == ".." {
                guard let top = stack.popLast() else { throw Errno.improperLink }
                _ = c_close(top)
                continue
            }
            let isFinal = pending.isEmpty
            var info = CStat()
            let looked = retryingOnInterrupt { fstatat(current, name, &info, AT_SYMLINK_NOFOLLOW) }
            let isLink = looked == 0 && info.st_mode & S_IFMT == S_IFLNK
            if isLink && (!isFinal || followFinal) {
                links += 1
                guard links <= 40 else { throw Errno.tooManySymbolicLinkLevels }
                let target: String
                do { target = try readLink(current, name) } catch { throw error.errno }
                if target.hasPrefix("/") { throw Errno.improperLink }
                pending.append(contentsOf: target.split(separator: "/", omittingEmptySubsequences: true).map(String.init).reversed())
                continue
            }
            if isFinal {
                let fd = openFile(current, name, flags | O_NOFOLLOW, mode_t(mode))
                if fd >= 0 { return fd }
                // A link swapped in after the fstatat: look again.
                if errno == ELOOP && followFinal && links < 40 { pending.append(name); links += 1; continue }
                throw currentErrno
            }
            if looked != 0 { throw currentErrno }
            let fd = openFile(current, name, O_PATH_FLAG | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if fd < 0 {
                // ENOTDIR on a link swapped in after the fstatat: look again.
                if errno == ENOTDIR && links < 40 { pending.append(name); links += 1; continue }
                throw currentErrno
            }
            stack.append(fd)
        }
        // Every component was "." or a link that led back to the start.
        let fd = openFile(current, ".", flags & ~(O_CREAT | O_EXCL | O_TRUNC | O_NOFOLLOW))
        guard fd >= 0 else { throw currentErrno }
        return fd
    }

    #if os(Linux)
    private static let resolveBeneath: UInt64 = 0x08
    private static let resolveNoMagicLinks: UInt64 = 0x02
    private static let sysOpenat2 = 437

    private static func openat2(_ dir: Int32, _ path: String, flags: Int32, mode: UInt32, resolve: UInt64) -> Int32 {
        // struct open_how { __u64 flags; __u64 mode; __u64 resolve; }
        var how: (UInt64, UInt64, UInt64) = (UInt64(UInt32(bitPattern: flags)), flags & O_CREAT != 0 ? UInt64(mode) : 0, resolve)
        return retryingOnInterrupt {
            withUnsafePointer(to: &how) { pointer in
                path.withCString {
                    Int32(truncatingIfNeeded: c_syscall(sysOpenat2, Int(dir), Int(bitPattern: $0), Int(bitPattern: pointer), 24, 0, 0))
                }
            }
        }
    }
    #endif
}

#if os(Linux)
/// `O_PATH`: a handle for `*at` calls and `fstat`, no read permission needed.
let O_PATH_FLAG: Int32 = 0o10000000
#else
let O_PATH_FLAG: Int32 = O_RDONLY
#endif
