// The module's only libc calls and platform `#if`s, behind one import ladder.
//
// Everything here works on directory file descriptors: the container keeps
// its root open and reaches every file *beneath* that descriptor, so a path
// string is never handed to the kernel from the process's working directory.
// Linux resolves with `openat2(RESOLVE_BENEATH)`; where the kernel lacks it,
// a component-by-component walk with `O_NOFOLLOW` gives the same guarantee.
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
#elseif canImport(Musl)
private typealias CStat = Musl.stat
#elseif canImport(Darwin)
private typealias CStat = Darwin.stat
#endif

#if os(Linux)
// Not imported from Glibc: variadic `syscall`, the xattr calls (sys/xattr.h is
// outside the module map) and `renameat2` (behind _GNU_SOURCE). Every argument
// is an integer or a pointer, which the SysV x86-64 and AAPCS64 ABIs pass the
// same way to fixed and variadic functions; glibc's `syscall` only moves
// registers.
@_silgen_name("syscall")
private func c_syscall_openat2(_ number: Int, _ dirfd: Int, _ path: UnsafePointer<CChar>, _ how: UnsafeRawPointer, _ size: Int) -> Int
@_silgen_name("fsetxattr")
private func c_fsetxattr(_ fd: Int32, _ name: UnsafePointer<CChar>, _ value: UnsafeRawPointer?, _ size: Int, _ flags: Int32) -> Int32
@_silgen_name("fgetxattr")
private func c_fgetxattr(_ fd: Int32, _ name: UnsafePointer<CChar>, _ value: UnsafeMutableRawPointer?, _ size: Int) -> Int
@_silgen_name("fremovexattr")
private func c_fremovexattr(_ fd: Int32, _ name: UnsafePointer<CChar>) -> Int32
@_silgen_name("renameat2")
private func c_renameat2(_ olddirfd: Int32, _ oldpath: UnsafePointer<CChar>, _ newdirfd: Int32, _ newpath: UnsafePointer<CChar>, _ flags: UInt32) -> Int32
#endif

// Top-level names reach libc's read/write/close, which `Platform`'s own
// members of the same name would otherwise shadow.
private func c_read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
private func c_write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
private func c_close(_ fd: Int32) -> Int32 { close(fd) }

/// A failed system call: the `errno` it left.
struct SystemFailure: Error {
    var errno: Int32
}

/// What a stat call reports, in the platform-neutral shape the module needs.
struct PlatformStat {
    var size: UInt64
    var mode: UInt32
    var inode: UInt64
    var device: UInt64
    var modificationDate: Date
    var isDirectory: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFDIR) }
    var isSymbolicLink: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFLNK) }
    var isRegularFile: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFREG) }
}

/// How a container resolves paths beneath its root.
public enum PathResolution: Sendable, Equatable {
    /// `openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS)` when the kernel has
    /// it, else the component walk.
    case automatic
    /// The user-space walk only (what older kernels and other systems get).
    case componentWalk
}

enum Platform {
    typealias Descriptor = Int32

    // MARK: Flags the rest of the module names without importing libc.

    static let readOnly = O_RDONLY | O_CLOEXEC
    static let readWrite = O_RDWR | O_CLOEXEC
    static let directoryFlags = O_RDONLY | O_DIRECTORY | O_CLOEXEC
    #if os(Linux)
    /// `O_PATH`: a handle for *at calls and fstat, no read permission needed.
    static let pathOnly: Int32 = 0o10000000 | O_CLOEXEC
    #else
    static let pathOnly: Int32 = O_RDONLY | O_CLOEXEC
    #endif
    static let create = O_CREAT
    static let exclusive = O_EXCL
    static let truncate = O_TRUNC
    static let writeOnly = O_WRONLY | O_CLOEXEC
    static let noFollow = O_NOFOLLOW
    static let nonBlocking = O_NONBLOCK
    static let notFoundErrno = ENOENT
    static let ioErrno = EIO
    static let isDirectoryErrno = EISDIR

    // MARK: Errno classification (the error type maps these to its codes).

    static func isNotFound(_ e: Int32) -> Bool { e == ENOENT }
    static func isExists(_ e: Int32) -> Bool { e == EEXIST || e == ENOTEMPTY }
    static func isNoSpace(_ e: Int32) -> Bool { e == ENOSPC || e == EDQUOT }
    static func isTooLarge(_ e: Int32) -> Bool { e == EFBIG }
    static func isPermission(_ e: Int32) -> Bool { e == EACCES || e == EPERM }
    static func isReadOnlyFS(_ e: Int32) -> Bool { e == EROFS }
    /// EXDEV is openat2's "would leave the directory"; the walk reports the same.
    static func isEscape(_ e: Int32) -> Bool { e == EXDEV }
    static func isLoop(_ e: Int32) -> Bool { e == ELOOP }
    static func isNotDirectory(_ e: Int32) -> Bool { e == ENOTDIR }
    static func isDirectoryError(_ e: Int32) -> Bool { e == EISDIR }
    static func isNotEmpty(_ e: Int32) -> Bool { e == ENOTEMPTY }
    static func isNameTooLong(_ e: Int32) -> Bool { e == ENAMETOOLONG }
    static func isUnsupported(_ e: Int32) -> Bool { e == ENOTSUP || e == EOPNOTSUPP }
    static let escapeErrno: Int32 = EXDEV
    static let loopErrno: Int32 = ELOOP

    static func describe(_ e: Int32) -> String { String(cString: strerror(e)) }

    static var lastErrno: Int32 { errno }

    // MARK: Descriptors

    static func close(_ fd: Descriptor) {
        _ = systemClose(fd)
    }

    /// Opens an absolute or working-directory-relative path (only the
    /// container root and bundle root are opened this way).
    static func openPath(_ path: String, flags: Int32) throws(SystemFailure) -> Descriptor {
        let fd = retrying { open(path, flags) }
        guard fd >= 0 else { throw SystemFailure(errno: errno) }
        return fd
    }

    /// Creates a directory (and its parents) at an absolute path.
    static func makeDirectories(atPath path: String) throws(SystemFailure) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            current += "/" + part
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw SystemFailure(errno: errno)
            }
        }
    }

    static func openAt(_ dir: Descriptor, _ name: String, flags: Int32, mode: UInt32 = 0o644) throws(SystemFailure) -> Descriptor {
        let fd = retrying { openat(dir, name, flags, mode_t(mode)) }
        guard fd >= 0 else { throw SystemFailure(errno: errno) }
        return fd
    }

    // MARK: Resolution beneath a directory

    /// Whether this kernel has `openat2` (Linux 5.6+); probed once.
    static let hasOpenat2: Bool = {
        #if os(Linux)
        let fd = openat2(AT_FDCWD, "/", flags: pathOnly | O_DIRECTORY, mode: 0, resolve: 0)
        if fd >= 0 { close(fd); return true }
        return errno != ENOSYS
        #else
        return false
        #endif
    }()

    #if os(Linux)
    private static let resolveBeneath: UInt64 = 0x08
    private static let resolveNoMagicLinks: UInt64 = 0x02
    private static let sysOpenat2 = 437

    private static func openat2(_ dir: Descriptor, _ path: String, flags: Int32, mode: UInt32, resolve: UInt64) -> Descriptor {
        // struct open_how { __u64 flags; __u64 mode; __u64 resolve; }
        var how: (UInt64, UInt64, UInt64) = (UInt64(UInt32(bitPattern: flags)), flags & O_CREAT != 0 ? UInt64(mode) : 0, resolve)
        return retrying {
            withUnsafePointer(to: &how) { pointer in
                path.withCString { Int32(truncatingIfNeeded: c_syscall_openat2(sysOpenat2, Int(dir), $0, pointer, 24)) }
            }
        }
    }
    #endif

    /// Opens `path` (a normalized relative path: components joined by "/",
    /// none "", "." or "..") beneath `root`. Symbolic links are followed only
    /// while they stay beneath `root`; the final one only when `followFinal`.
    /// Escapes fail with EXDEV.
    static func openBeneath(
        _ root: Descriptor, _ path: String, flags: Int32, mode: UInt32 = 0o644,
        followFinal: Bool = true, resolver: PathResolution = .automatic
    ) throws(SystemFailure) -> Descriptor {
        if path.isEmpty {
            // The root itself: a fresh descriptor for it.
            return try openAt(root, ".", flags: flags & ~(O_CREAT | O_EXCL | O_TRUNC | O_NOFOLLOW))
        }
        #if os(Linux)
        if resolver == .automatic && hasOpenat2 {
            var attempts = 0
            while true {
                let fd = openat2(root, path, flags: flags | (followFinal ? 0 : O_NOFOLLOW), mode: mode,
                                 resolve: resolveBeneath | resolveNoMagicLinks)
                if fd >= 0 { return fd }
                // EAGAIN: a concurrent rename disturbed the lookup; the
                // kernel asks for a retry rather than risk a wrong answer.
                if errno == EAGAIN && attempts < 16 { attempts += 1; continue }
                throw SystemFailure(errno: errno)
            }
        }
        #endif
        let components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        return try walkBeneath(root, components[...], flags: flags, mode: mode, followFinal: followFinal)
    }

    /// The user-space equivalent of RESOLVE_BENEATH. The kernel never
    /// follows a link here: every step is `openat(O_NOFOLLOW)`; links are read
    /// with `readlinkat` and their text spliced into the remaining path, and
    /// ".." pops this walk's own stack, so a directory moved elsewhere by
    /// another process cannot lead out of the root.
    static func walkBeneath(
        _ root: Descriptor, _ components: ArraySlice<String>, flags: Int32, mode: UInt32, followFinal: Bool
    ) throws(SystemFailure) -> Descriptor {
        var pending = Array(components.reversed())  // a stack: last element is next
        var stack: [Descriptor] = []                // descriptors we own, deepest last
        var links = 0
        defer { for fd in stack { close(fd) } }
        var current: Descriptor { stack.last ?? root }

        while let name = pending.popLast() {
            if name.isEmpty || name == "." { continue }
            if name == ".." {
                guard let top = stack.popLast() else { throw SystemFailure(errno: EXDEV) }
                close(top)
                continue
            }
            let isFinal = pending.isEmpty
            var info = CStat()
            let looked = retrying { fstatat(current, name, &info, AT_SYMLINK_NOFOLLOW) }
            let isLink = looked == 0 && info.st_mode & S_IFMT == S_IFLNK
            if isLink && (!isFinal || followFinal) {
                links += 1
                guard links <= 40 else { throw SystemFailure(errno: ELOOP) }
                let target = try readLink(current, name)
                if target.hasPrefix("/") { throw SystemFailure(errno: EXDEV) }
                pending.append(contentsOf: target.split(separator: "/", omittingEmptySubsequences: true).map(String.init).reversed())
                continue
            }
            if isFinal {
                let fd = retrying { openat(current, name, flags | O_NOFOLLOW, mode_t(mode)) }
                if fd >= 0 { return fd }
                // A link swapped in after the fstatat: look again.
                if errno == ELOOP && followFinal && links < 40 { pending.append(name); links += 1; continue }
                throw SystemFailure(errno: errno)
            }
            if looked != 0 { throw SystemFailure(errno: errno) }
            let fd = retrying { openat(current, name, pathOnly | O_DIRECTORY | O_NOFOLLOW) }
            if fd < 0 {
                // ENOTDIR on a link swapped in after the fstatat: look again.
                if errno == ENOTDIR && links < 40 { pending.append(name); links += 1; continue }
                throw SystemFailure(errno: errno)
            }
            stack.append(fd)
        }
        // Every component was "." or a link that led back to the start.
        return try openAt(current, ".", flags: flags & ~(O_CREAT | O_EXCL | O_TRUNC | O_NOFOLLOW))
    }

    static func readLink(_ dir: Descriptor, _ name: String) throws(SystemFailure) -> String {
        var buffer = [CChar](repeating: 0, count: 4097)
        let count = readlinkat(dir, name, &buffer, 4096)
        guard count >= 0 else { throw SystemFailure(errno: errno) }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: Metadata

    static func stat(_ fd: Descriptor) throws(SystemFailure) -> PlatformStat {
        var info = CStat()
        guard fstat(fd, &info) == 0 else { throw SystemFailure(errno: errno) }
        return convert(info)
    }

    static func stat(_ dir: Descriptor, _ name: String, followLinks: Bool = false) throws(SystemFailure) -> PlatformStat {
        var info = CStat()
        guard fstatat(dir, name, &info, followLinks ? 0 : AT_SYMLINK_NOFOLLOW) == 0 else { throw SystemFailure(errno: errno) }
        return convert(info)
    }

    private static func convert(_ info: CStat) -> PlatformStat {
        let seconds = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1_000_000_000
        return PlatformStat(size: UInt64(max(0, info.st_size)), mode: UInt32(info.st_mode), inode: UInt64(info.st_ino),
                            device: UInt64(info.st_dev), modificationDate: Date(timeIntervalSince1970: seconds))
    }

    static func changeMode(_ fd: Descriptor, _ mode: UInt32) {
        _ = fchmod(fd, mode_t(mode & 0o7777))
    }

    // MARK: Directory entries

    static func makeDirectory(_ dir: Descriptor, _ name: String, mode: UInt32 = 0o755) throws(SystemFailure) {
        guard mkdirat(dir, name, mode_t(mode)) == 0 else { throw SystemFailure(errno: errno) }
    }

    static func unlink(_ dir: Descriptor, _ name: String, directory: Bool) throws(SystemFailure) {
        guard unlinkat(dir, name, directory ? AT_REMOVEDIR : 0) == 0 else { throw SystemFailure(errno: errno) }
    }

    /// Swaps two existing names atomically (`renameat2(RENAME_EXCHANGE)`):
    /// afterwards `to` names what `from` named and the other way round.
    /// False where the system or file system cannot (the caller renames).
    static func exchange(_ dir: Descriptor, _ from: String, _ to: String) throws(SystemFailure) -> Bool {
        #if os(Linux)
        let exchange: UInt32 = 2  // RENAME_EXCHANGE
        if c_renameat2(dir, from, dir, to, exchange) == 0 { return true }
        if errno == EINVAL || errno == ENOSYS || errno == ENOENT { return false }
        throw SystemFailure(errno: errno)
        #else
        return false
        #endif
    }

    /// Renames; with `replace == false` an existing destination is an error
    /// (EEXIST) rather than silently replaced.
    static func rename(_ fromDir: Descriptor, _ from: String, _ toDir: Descriptor, _ to: String, replace: Bool) throws(SystemFailure) {
        if replace {
            guard renameat(fromDir, from, toDir, to) == 0 else { throw SystemFailure(errno: errno) }
            return
        }
        #if os(Linux)
        let noReplace: UInt32 = 1  // RENAME_NOREPLACE
        if c_renameat2(fromDir, from, toDir, to, noReplace) == 0 { return }
        guard errno == EINVAL || errno == ENOSYS else { throw SystemFailure(errno: errno) }
        #endif
        // No RENAME_NOREPLACE on this file system: a hard link fails on an
        // existing name, then the old name goes. Directories cannot be
        // linked; they are checked, then renamed (a narrow window).
        if linkat(fromDir, from, toDir, to, 0) == 0 {
            _ = unlinkat(fromDir, from, 0)
            return
        }
        guard errno == EPERM || errno == EXDEV else { throw SystemFailure(errno: errno) }
        var info = CStat()
        if fstatat(toDir, to, &info, AT_SYMLINK_NOFOLLOW) == 0 { throw SystemFailure(errno: EEXIST) }
        guard renameat(fromDir, from, toDir, to) == 0 else { throw SystemFailure(errno: errno) }
    }

    /// The names in a directory, without "." and "..", in directory order.
    static func listDirectory(_ dir: Descriptor) throws(SystemFailure) -> [String] {
        let fd = try openAt(dir, ".", flags: directoryFlags)
        guard let stream = fdopendir(fd) else {
            let failure = SystemFailure(errno: errno)
            close(fd)
            throw failure
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    static func symbolicLink(_ target: String, _ dir: Descriptor, _ name: String) throws(SystemFailure) {
        guard symlinkat(target, dir, name) == 0 else { throw SystemFailure(errno: errno) }
    }

    // MARK: Reading and writing

    /// Reads exactly `count` bytes at `offset` (fewer at end of file).
    static func read(_ fd: Descriptor, into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64?) throws(SystemFailure) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var total = 0
        while total < buffer.count {
            let count: Int
            if let offset {
                count = pread(fd, base + total, buffer.count - total, off_t(offset) + off_t(total))
            } else {
                count = c_read(fd, base + total, buffer.count - total)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemFailure(errno: errno)
            }
            if count == 0 { break }
            total += count
        }
        return total
    }

    /// Writes all of `buffer` at `offset` (or the file position).
    static func write(_ fd: Descriptor, _ buffer: UnsafeRawBufferPointer, at offset: UInt64?) throws(SystemFailure) {
        guard let base = buffer.baseAddress else { return }
        var total = 0
        while total < buffer.count {
            let count: Int
            if let offset {
                count = pwrite(fd, base + total, buffer.count - total, off_t(offset) + off_t(total))
            } else {
                count = c_write(fd, base + total, buffer.count - total)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemFailure(errno: errno)
            }
            // A zero-byte write of a non-empty buffer means the device is full.
            if count == 0 { throw SystemFailure(errno: ENOSPC) }
            total += count
        }
    }

    /// Writes all of `data` at `offset` (or the file position).
    static func write(_ fd: Descriptor, _ data: Data, at offset: UInt64? = nil) throws(SystemFailure) {
        var failure: SystemFailure?
        data.withUnsafeBytes { buffer in
            do throws(SystemFailure) { try write(fd, buffer, at: offset) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Reads up to `count` bytes at `offset` into a new `Data`.
    static func read(_ fd: Descriptor, count: Int, at offset: UInt64) throws(SystemFailure) -> Data {
        var data = Data(count: count)
        var failure: SystemFailure?
        let got = data.withUnsafeMutableBytes { buffer -> Int in
            do throws(SystemFailure) { return try read(fd, into: buffer, at: offset) } catch { failure = error; return 0 }
        }
        if let failure { throw failure }
        if got < count { data.removeSubrange(got...) }
        return data
    }

    static func sync(_ fd: Descriptor) throws(SystemFailure) {
        guard fsync(fd) == 0 else { throw SystemFailure(errno: errno) }
    }

    static func truncate(_ fd: Descriptor, to size: UInt64) throws(SystemFailure) {
        guard ftruncate(fd, off_t(size)) == 0 else { throw SystemFailure(errno: errno) }
    }

    /// Maps `size` bytes of `fd` read-only; the `Data` unmaps when released.
    static func mapFile(_ fd: Descriptor, size: Int) throws(SystemFailure) -> Data {
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0),
              address != UnsafeMutableRawPointer(bitPattern: -1) else {
            throw SystemFailure(errno: errno)
        }
        return Data(bytesNoCopy: address, count: size, deallocator: .custom { pointer, count in
            _ = munmap(pointer, count)
        })
    }

    // MARK: Locks

    static func lockExclusive(_ fd: Descriptor) throws(SystemFailure) {
        while flock(fd, LOCK_EX) != 0 {
            if errno != EINTR { throw SystemFailure(errno: errno) }
        }
    }

    static func unlock(_ fd: Descriptor) {
        _ = flock(fd, LOCK_UN)
    }

    // MARK: Extended attributes

    /// The attribute's bytes, or nil when the file does not have it.
    static func extendedAttribute(_ fd: Descriptor, _ name: String) throws(SystemFailure) -> [UInt8]? {
        #if os(Linux)
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { c_fgetxattr(fd, name, $0.baseAddress, $0.count) }
        if count >= 0 { return Array(buffer[0..<count]) }
        if errno == ENODATA { return nil }
        throw SystemFailure(errno: errno)
        #else
        throw SystemFailure(errno: ENOTSUP)
        #endif
    }

    static func setExtendedAttribute(_ fd: Descriptor, _ name: String, _ value: [UInt8]) throws(SystemFailure) {
        #if os(Linux)
        let result = value.withUnsafeBytes { c_fsetxattr(fd, name, $0.baseAddress, $0.count, 0) }
        guard result == 0 else { throw SystemFailure(errno: errno) }
        #else
        throw SystemFailure(errno: ENOTSUP)
        #endif
    }

    static func removeExtendedAttribute(_ fd: Descriptor, _ name: String) throws(SystemFailure) {
        #if os(Linux)
        if c_fremovexattr(fd, name) == 0 || errno == ENODATA { return }
        throw SystemFailure(errno: errno)
        #else
        throw SystemFailure(errno: ENOTSUP)
        #endif
    }

    /// A random name suffix for temporary files.
    static func randomSuffix() -> String {
        String(UInt64.random(in: 0...UInt64.max), radix: 36)
    }

    // MARK: Helpers

    private static func systemClose(_ fd: Descriptor) -> Int32 { c_close(fd) }

    @inline(__always)
    private static func retrying(_ call: () -> Int32) -> Int32 {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }
}
