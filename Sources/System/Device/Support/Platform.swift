// The module's only libc calls and platform `#if`s, behind one import ladder.
//
// Tree traversal works on directory descriptors with *at calls and never
// builds a path string per entry: purge and container removal touch every
// file of a tree, and a `FileManager` walk spends most of its time making
// URLs and attribute dictionaries.
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc)
private typealias CStat = Glibc.stat
private typealias CStatVFS = Glibc.statvfs
#elseif canImport(Musl)
private typealias CStat = Musl.stat
private typealias CStatVFS = Musl.statvfs
#elseif canImport(Darwin)
private typealias CStat = Darwin.stat
private typealias CStatVFS = Darwin.statvfs
#endif

// Top-level names reach libc's functions that `Platform`'s own members of
// the same name would otherwise shadow.
private func c_close(_ fd: Int32) -> Int32 { close(fd) }
private func c_write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
private func c_statvfs(_ path: String, _ info: inout CStatVFS) -> Int32 { statvfs(path, &info) }
private func c_kill(_ pid: Int32, _ signal: Int32) -> Int32 { kill(pid, signal) }
private func c_isatty(_ fd: Int32) -> Int32 { isatty(fd) }
private func c_rename(_ from: String, _ to: String) -> Int32 { rename(from, to) }

/// A failed system call: the `errno` it left.
struct SystemFailure: Error {
    var errno: Int32
}

/// Totals of a tree walk: regular files and links removed (or counted),
/// directories, and the disk blocks they held, in bytes.
struct TreeTally: Sendable, Equatable {
    var files: Int = 0
    var directories: Int = 0
    var bytes: UInt64 = 0

    static func + (lhs: TreeTally, rhs: TreeTally) -> TreeTally {
        TreeTally(files: lhs.files + rhs.files, directories: lhs.directories + rhs.directories, bytes: lhs.bytes + rhs.bytes)
    }
}

/// The file system's capacity as `statvfs` reports it.
struct FileSystemSpace {
    var total: UInt64
    var available: UInt64
}

enum Platform {
    typealias Descriptor = Int32

    static let directoryFlags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW

    static func describe(_ e: Int32) -> String { String(cString: strerror(e)) }
    static func isNotFound(_ e: Int32) -> Bool { e == ENOENT }
    static func isExists(_ e: Int32) -> Bool { e == EEXIST || e == ENOTEMPTY }
    static func isNoSpace(_ e: Int32) -> Bool { e == ENOSPC || e == EDQUOT }
    static func isPermission(_ e: Int32) -> Bool { e == EACCES || e == EPERM }

    // MARK: Files

    static func openDirectory(_ path: String) throws(SystemFailure) -> Descriptor {
        let fd = open(path, directoryFlags)
        guard fd >= 0 else { throw SystemFailure(errno: errno) }
        return fd
    }

    static func close(_ fd: Descriptor) { _ = c_close(fd) }

    /// Creates `path` and its missing parents with `mode`.
    static func makeDirectories(_ path: String, mode: UInt32 = 0o755) throws(SystemFailure) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            current += "/" + part
            if mkdir(current, mode_t(mode)) != 0 && errno != EEXIST { throw SystemFailure(errno: errno) }
        }
    }

    /// Writes `data` to `path` so that a reader sees the old file or the
    /// new one: a temporary file beside it, `fsync`, `rename`, then `fsync`
    /// of the directory so the rename itself survives a power cut.
    static func writeAtomically(_ data: Data, to path: String, mode: UInt32 = 0o644) throws(SystemFailure) {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = directory + "/.\((path as NSString).lastPathComponent).\(UInt64.random(in: 0...UInt64.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(mode))
        guard fd >= 0 else { throw SystemFailure(errno: errno) }
        do throws(SystemFailure) {
            try writeAll(fd, data)
            guard fsync(fd) == 0 else { throw SystemFailure(errno: errno) }
            _ = c_close(fd)
            guard c_rename(temporary, path) == 0 else { throw SystemFailure(errno: errno) }
        } catch {
            _ = c_close(fd)
            _ = unlink(temporary)
            throw error
        }
        syncDirectory(directory)
    }

    private static func writeAll(_ fd: Descriptor, _ data: Data) throws(SystemFailure) {
        let result: Int32 = data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                guard let base = buffer.baseAddress else { return 0 }
                let written = c_write(fd, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return 0
        }
        if result != 0 { throw SystemFailure(errno: result) }
    }

    /// Flushes a directory's entries (best effort: some file systems refuse).
    static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        _ = c_close(fd)
    }

    /// `rename(2)`: replaces `to` (a file, or an empty directory) with `from`.
    static func rename(_ from: String, _ to: String) throws(SystemFailure) {
        guard c_rename(from, to) == 0 else { throw SystemFailure(errno: errno) }
    }

    /// Whether anything (a link included) exists at `path`.
    static func exists(_ path: String) -> Bool {
        var info = CStat()
        return lstat(path, &info) == 0
    }

    /// Whether `path` is a directory (links are not followed).
    static func isDirectory(_ path: String) -> Bool {
        var info = CStat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Whether `path` is a regular file (links are followed).
    static func isRegularFile(_ path: String) -> Bool {
        var info = CStat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    // MARK: Locks

    /// Opens (creating) `path` and takes an exclusive `flock` on it; the
    /// kernel drops it when the process dies, so a killed installer never
    /// leaves the device locked.
    static func lockFile(_ path: String) throws(SystemFailure) -> Descriptor {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SystemFailure(errno: errno) }
        while flock(fd, LOCK_EX) != 0 {
            if errno != EINTR {
                let failure = SystemFailure(errno: errno)
                _ = c_close(fd)
                throw failure
            }
        }
        return fd
    }

    /// Releases a lock from ``lockFile(_:)``.
    static func unlockFile(_ fd: Descriptor) {
        _ = flock(fd, LOCK_UN)
        _ = c_close(fd)
    }

    // MARK: Disk space

    static func fileSystemSpace(_ path: String) throws(SystemFailure) -> FileSystemSpace {
        var info = CStatVFS()
        guard c_statvfs(path, &info) == 0 else { throw SystemFailure(errno: errno) }
        let unit = UInt64(info.f_frsize == 0 ? info.f_bsize : info.f_frsize)
        return FileSystemSpace(total: UInt64(info.f_blocks) * unit, available: UInt64(info.f_bavail) * unit)
    }

    // MARK: Processes

    static var currentProcessID: Int32 { getpid() }

    /// Whether a process with `pid` exists (EPERM: it exists, owned by another user).
    static func processExists(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return c_kill(pid, 0) == 0 || errno == EPERM
    }

    /// The process's start time in clock ticks since boot (field 22 of
    /// `/proc/<pid>/stat`), which tells a reused pid from the one recorded;
    /// nil where `/proc` is missing.
    static func processStartTime(_ pid: Int32) -> UInt64? {
        #if os(Linux)
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // Fields after the command name, which may itself contain spaces:
        // state is field 3, so start time (22) is the 20th after ")".
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? UInt64(fields[19]) : nil
        #else
        return nil
        #endif
    }

    static func isTerminal(_ fd: Int32) -> Bool { c_isatty(fd) == 1 }

    // MARK: Tree walks

    /// Removes everything inside the directory at `path`, keeping the
    /// directory itself, and tallies what went. A missing directory is an
    /// empty tally. `progress` is called every `every` entries.
    static func removeContents(of path: String, every: Int = 4096,
                               progress: ((TreeTally) -> Void)? = nil) throws(SystemFailure) -> TreeTally {
        try walkTree(path) { fd, tally throws(SystemFailure) in
            try removeContents(fd, tally: &tally, every: every, progress: progress)
        }
    }

    /// Removes the tree at `path` (a file, link or directory); missing is fine.
    static func removeTree(_ path: String) throws(SystemFailure) -> TreeTally {
        var info = CStat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return TreeTally() }
            throw SystemFailure(errno: errno)
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            guard unlink(path) == 0 || errno == ENOENT else { throw SystemFailure(errno: errno) }
            return TreeTally(files: 1, directories: 0, bytes: UInt64(info.st_blocks) * 512)
        }
        var tally = try removeContents(of: path)
        guard rmdir(path) == 0 || errno == ENOENT else { throw SystemFailure(errno: errno) }
        tally.directories += 1
        return tally
    }

    /// The regular files, links and directories below `path`, with their
    /// disk usage, without changing anything.
    static func measureTree(_ path: String) throws(SystemFailure) -> TreeTally {
        try walkTree(path) { fd, tally throws(SystemFailure) in try measure(fd, tally: &tally) }
    }

    /// Opens the directory at `path` (a missing one is an empty tally) and
    /// runs `body` on it.
    private static func walkTree(_ path: String,
                                 _ body: (Descriptor, inout TreeTally) throws(SystemFailure) -> Void) throws(SystemFailure) -> TreeTally {
        let fd = open(path, directoryFlags)
        if fd < 0 {
            if errno == ENOENT || errno == ENOTDIR { return TreeTally() }
            throw SystemFailure(errno: errno)
        }
        defer { _ = c_close(fd) }
        var tally = TreeTally()
        try body(fd, &tally)
        return tally
    }

    private static func removeContents(_ dir: Descriptor, tally: inout TreeTally, every: Int,
                                       progress: ((TreeTally) -> Void)?) throws(SystemFailure) {
        // Entries already returned may be unlinked while the stream is
        // open; a second pass catches any a file system skipped.
        var pass = 0
        while true {
            pass += 1
            let removedBefore = tally.files + tally.directories
            var seen = false
            try forEachEntry(dir) { name throws(SystemFailure) in
                seen = true
                var info = CStat()
                guard fstatat(dir, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
                    if errno == ENOENT { return }
                    throw SystemFailure(errno: errno)
                }
                if info.st_mode & S_IFMT == S_IFDIR {
                    let child = openat(dir, name, directoryFlags)
                    guard child >= 0 else { throw SystemFailure(errno: errno) }
                    defer { _ = c_close(child) }
                    try removeContents(child, tally: &tally, every: every, progress: progress)
                    guard unlinkat(dir, name, AT_REMOVEDIR) == 0 || errno == ENOENT else { throw SystemFailure(errno: errno) }
                    tally.directories += 1
                } else {
                    guard unlinkat(dir, name, 0) == 0 || errno == ENOENT else { throw SystemFailure(errno: errno) }
                    tally.files += 1
                    tally.bytes += UInt64(info.st_blocks) * 512
                }
                if let progress, (tally.files + tally.directories) % every == 0 { progress(tally) }
            }
            if !seen || tally.files + tally.directories == removedBefore || pass >= 4 { return }
        }
    }

    private static func measure(_ dir: Descriptor, tally: inout TreeTally) throws(SystemFailure) {
        try forEachEntry(dir) { name throws(SystemFailure) in
            var info = CStat()
            guard fstatat(dir, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
                if errno == ENOENT { return }
                throw SystemFailure(errno: errno)
            }
            if info.st_mode & S_IFMT == S_IFDIR {
                tally.directories += 1
                let child = openat(dir, name, directoryFlags)
                guard child >= 0 else { throw SystemFailure(errno: errno) }
                defer { _ = c_close(child) }
                try measure(child, tally: &tally)
            } else {
                tally.files += 1
                tally.bytes += UInt64(info.st_blocks) * 512
            }
        }
    }

    /// Calls `body` with each entry's NUL-terminated name (not "." or
    /// ".."), straight from `readdir`'s buffer: no string is made per entry.
    private static func forEachEntry(_ dir: Descriptor,
                                     _ body: (UnsafePointer<CChar>) throws(SystemFailure) -> Void) throws(SystemFailure) {
        let fd = openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemFailure(errno: errno) }
        guard let stream = fdopendir(fd) else {
            let failure = SystemFailure(errno: errno)
            _ = c_close(fd)
            throw failure
        }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let done: SystemFailure? = withUnsafePointer(to: &entry.pointee.d_name) { pointer -> SystemFailure? in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { name -> SystemFailure? in
                    if name[0] == 0x2E && (name[1] == 0 || (name[1] == 0x2E && name[2] == 0)) { return nil }
                    do throws(SystemFailure) { try body(name) } catch { return error }
                    return nil
                }
            }
            if let done { throw done }
        }
    }

    /// The names in a directory (not "." or ".."); missing is empty.
    static func listDirectory(_ path: String) throws(SystemFailure) -> [String] {
        let fd = open(path, directoryFlags)
        if fd < 0 {
            if errno == ENOENT { return [] }
            throw SystemFailure(errno: errno)
        }
        defer { _ = c_close(fd) }
        var names: [String] = []
        try forEachEntry(fd) { name in names.append(String(cString: name)) }
        return names
    }
}
