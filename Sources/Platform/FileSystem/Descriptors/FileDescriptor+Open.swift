#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

extension FileDescriptor.OpenOptions {
    /// `O_PATH` on Linux: a handle for `*at` calls and `fstat` that needs no
    /// read permission; elsewhere nothing (the open reads).
    public static var pathOnly: Self {
        #if os(Linux)
        return Self(rawValue: 0o10000000)
        #else
        return []
        #endif
    }
}

extension FileDescriptor.OpenOptions {
    /// `O_NOCTTY`: a terminal opened for writing (`-o /dev/tty`) does not
    /// become the process's controlling terminal.
    public static var noControllingTerminal: Self { Self(rawValue: O_NOCTTY) }
}

extension FileDescriptor {
    /// Flags for `open`: the access mode, the options and close-on-exec,
    /// which every descriptor of this package carries.
    @inline(__always)
    static func flags(_ access: AccessMode, _ options: OpenOptions) -> Int32 {
        access.rawValue | options.rawValue | O_CLOEXEC
    }

    /// Opens an absolute or working-directory-relative path. Only roots
    /// (a container, a device, a backup) are opened this way; what lies
    /// beneath them is reached with ``open(_:_:options:permissions:)`` or
    /// ``openBeneath(_:_:options:permissions:followFinal:resolution:)``.
    public static func open(atPath path: String, _ access: AccessMode, options: OpenOptions = [],
                            permissions: UInt32 = 0o644) throws(FileSystemError) -> FileDescriptor {
        let flags = Self.flags(access, options)
        let fd = openFile(AT_FDCWD, path, flags, mode_t(permissions))
        return FileDescriptor(rawValue: try check(fd, "open", path))
    }

    /// Opens the directory at `path`; with `followLinks` false a link there
    /// is refused (`ELOOP`).
    public static func openDirectory(atPath path: String, followLinks: Bool = true) throws(FileSystemError) -> FileDescriptor {
        try open(atPath: path, .readOnly, options: followLinks ? .directory : [.directory, .noFollow])
    }

    /// `openat`: opens `name` in this directory. `name` is one component or
    /// a relative path the kernel resolves as usual (links followed unless
    /// `.noFollow`, which governs the last component only): use it for names
    /// this process made or listed itself, and ``openBeneath`` for paths that
    /// come from elsewhere.
    public func open(_ name: String, _ access: AccessMode, options: OpenOptions = [],
                     permissions: UInt32 = 0o644) throws(FileSystemError) -> FileDescriptor {
        let flags = Self.flags(access, options)
        let fd = openFile(rawValue, name, flags, mode_t(permissions))
        return FileDescriptor(rawValue: try check(fd, "open", name))
    }

    /// Opens the directory `name` in this one, never through a link.
    public func openDirectory(_ name: String) throws(FileSystemError) -> FileDescriptor {
        try open(name, .readOnly, options: [.directory, .noFollow])
    }

    /// Closes the descriptor, ignoring errors (a close that fails has still
    /// released the descriptor on Linux; a write's errors are caught by the
    /// `fsync` before it).
    public func closeQuietly() { _ = c_close(rawValue) }
}

