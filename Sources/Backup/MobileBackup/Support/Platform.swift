// The module's only libc calls and platform checks: lstat, directory
// listing, readlink, raw file reads and writes, hard links, renames (with
// Linux's atomic exchange), tree removal and flushing to disk.
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What `lstat` says about one file, in the units a backup needs.
struct FileStatus: Sendable, Hashable {
    /// The full `st_mode`, type bits included.
    var mode: UInt32
    var size: Int64
    var inode: UInt64
    var userID: UInt32
    var groupID: UInt32
    /// Modification and status-change times in nanoseconds since 1970.
    var modifiedNanoseconds: Int64
    var changedNanoseconds: Int64

    var isDirectory: Bool { mode & 0o170000 == 0o040000 }
    var isRegularFile: Bool { mode & 0o170000 == 0o100000 }
    var isSymbolicLink: Bool { mode & 0o170000 == 0o120000 }
}

enum Platform {
    static func failure(_ what: String, _ path: String, code: MobileBackupError.Code = .ioFailed) -> MobileBackupError {
        let reason = String(cString: strerror(errno))
        return MobileBackupError(code, path: path, "\(what): \(reason)")
    }

    /// `lstat`, or nil when the path does not exist.
    static func status(_ path: String) throws -> FileStatus? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw failure("cannot read the file's status", path)
        }
        #if canImport(Darwin)
        let modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        let changed = Int64(info.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(info.st_ctimespec.tv_nsec)
        #else
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        let changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        #endif
        return FileStatus(mode: UInt32(info.st_mode), size: Int64(info.st_size), inode: UInt64(info.st_ino),
                          userID: UInt32(info.st_uid), groupID: UInt32(info.st_gid),
                          modifiedNanoseconds: modified, changedNanoseconds: changed)
    }

    /// The names in a directory, without `.` and `..`, sorted bytewise so
    /// backups list files in a stable order.
    static func directoryEntries(_ path: String) throws -> [String] {
        guard let stream = opendir(path) else { throw failure("cannot list the directory", path) }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
                    String(cString: $0)
                }
            }
            if name == "." || name == ".." { continue }
            names.append(name)
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The target of a symbolic link.
    static func linkTarget(_ path: String) throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { throw failure("cannot read the symbolic link", path) }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Opens `path` for reading.
    static func openForReading(_ path: String) throws -> Int32 {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("cannot open the file", path) }
        return descriptor
    }

    /// Creates `path` (which must not exist) for writing, with `permissions`.
    static func createForWriting(_ path: String, permissions: UInt32 = 0o644) throws -> Int32 {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(permissions))
        guard descriptor >= 0 else { throw failure("cannot create the file", path) }
        return descriptor
    }

    static func close(_ descriptor: Int32) {
        _ = closeDescriptor(descriptor)
    }

    private static func closeDescriptor(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
        return Glibc.close(descriptor)
        #elseif canImport(Musl)
        return Musl.close(descriptor)
        #else
        return Darwin.close(descriptor)
        #endif
    }

    /// Reads up to `buffer.count` bytes; 0 means end of file.
    static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, path: String) throws -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        while true {
            #if canImport(Glibc)
            let count = Glibc.read(descriptor, base, buffer.count)
            #elseif canImport(Musl)
            let count = Musl.read(descriptor, base, buffer.count)
            #else
            let count = Darwin.read(descriptor, base, buffer.count)
            #endif
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw failure("cannot read the file", path)
        }
    }

    /// Writes all of `bytes`.
    static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
        guard var pointer = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            #if canImport(Glibc)
            let count = Glibc.write(descriptor, pointer, remaining)
            #elseif canImport(Musl)
            let count = Musl.write(descriptor, pointer, remaining)
            #else
            let count = Darwin.write(descriptor, pointer, remaining)
            #endif
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("cannot write the file", path)
            }
            pointer += count
            remaining -= count
        }
    }

    /// Copies a file's bytes to a new file (`copy_file_range` where the
    /// kernel has it, so they never pass through user space).
    static func copyFile(_ source: String, _ destination: String) throws {
        let input = try openForReading(source)
        defer { close(input) }
        let output = try createForWriting(destination)
        defer { close(output) }
        if let copyFileRange {
            copying: while true {
                let count = copyFileRange(input, nil, output, nil, 1 << 30, 0)
                if count > 0 { continue }
                if count == 0 { return }
                if errno == EINTR { continue }
                if errno != EXDEV && errno != ENOSYS && errno != EOPNOTSUPP && errno != EINVAL {
                    throw failure("cannot copy \(source)", destination)
                }
                break copying
            }
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try read(input, into: $0, path: source) }
            if count == 0 { return }
            try buffer.withUnsafeBytes { try write(output, UnsafeRawBufferPointer(rebasing: $0[0..<count]), path: destination) }
        }
    }

    private typealias CopyFileRange = @convention(c) (Int32, UnsafeMutablePointer<Int64>?, Int32, UnsafeMutablePointer<Int64>?, Int, UInt32) -> Int

    /// Linux's `copy_file_range`, looked up at run time like `renameat2`.
    private static let copyFileRange: CopyFileRange? = {
        #if os(Linux)
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "copy_file_range") else { return nil }
        return unsafeBitCast(symbol, to: CopyFileRange.self)
        #else
        return nil
        #endif
    }()

    /// Creates a directory (an existing one is fine).
    static func makeDirectory(_ path: String, permissions: UInt32 = 0o755) throws {
        if mkdir(path, mode_t(permissions)) != 0 && errno != EEXIST {
            throw failure("cannot create the directory", path)
        }
    }

    /// A second name for `source`'s inode; false when the file system
    /// cannot link (then the caller copies).
    static func hardLink(_ source: String, _ destination: String) throws -> Bool {
        if link(source, destination) == 0 { return true }
        switch errno {
        // ENOENT: the previous payload is gone, so the caller copies instead.
        case EXDEV, EPERM, EMLINK, ENOTSUP, EOPNOTSUPP, ENOENT: return false
        default: throw failure("cannot link \(source)", destination)
        }
    }

    static func rename(_ source: String, _ destination: String) throws {
        #if canImport(Glibc)
        let result = Glibc.rename(source, destination)
        #elseif canImport(Musl)
        let result = Musl.rename(source, destination)
        #else
        let result = Darwin.rename(source, destination)
        #endif
        guard result == 0 else { throw failure("cannot rename \(source)", destination) }
    }

    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    /// Linux's `renameat2`, looked up at run time because the C library
    /// headers Swift imports do not declare it.
    private static let renameAt2: RenameAt2? = {
        #if os(Linux)
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: RenameAt2.self)
        #else
        return nil
        #endif
    }()

    /// Swaps two existing paths in one step (`RENAME_EXCHANGE`), so that
    /// no moment exists where neither is in place. False when the kernel or
    /// file system cannot; the caller then renames twice.
    static func exchange(_ first: String, _ second: String) throws -> Bool {
        guard let renameAt2 else { return false }
        let renameExchange: UInt32 = 2
        if renameAt2(AT_FDCWD, first, AT_FDCWD, second, renameExchange) == 0 { return true }
        switch errno {
        case EINVAL, ENOSYS, ENOTSUP, EOPNOTSUPP: return false
        default: throw failure("cannot exchange \(first)", second)
        }
    }

    /// Removes `path` and everything below it; a missing path is fine.
    static func removeTree(_ path: String) throws {
        guard let info = try status(path) else { return }
        if info.isDirectory {
            for name in try directoryEntries(path) {
                try removeTree(path + "/" + name)
            }
            guard rmdir(path) == 0 else { throw failure("cannot remove the directory", path) }
        } else {
            guard unlink(path) == 0 || errno == ENOENT else { throw failure("cannot remove the file", path) }
        }
    }

    /// Removes one file; a missing file is fine.
    static func removeFile(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else { throw failure("cannot remove the file", path) }
    }

    private typealias SyncFS = @convention(c) (Int32) -> Int32

    /// Linux's `syncfs`, looked up at run time like `renameat2`.
    private static let syncFileSystem: SyncFS? = {
        #if os(Linux)
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "syncfs") else { return nil }
        return unsafeBitCast(symbol, to: SyncFS.self)
        #else
        return nil
        #endif
    }()

    /// Flushes the file system holding `path` to disk (one call, instead
    /// of one `fsync` per payload), so a committed backup survives a power cut.
    static func flushFileSystem(containing path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("cannot open for flushing", path) }
        defer { close(descriptor) }
        if let syncFileSystem {
            guard syncFileSystem(descriptor) == 0 else { throw failure("cannot flush the file system", path) }
        } else {
            sync()
        }
    }

    /// Flushes one file or directory to disk (`fsync`), for the few writes
    /// whose order matters and that should not wait on the whole file system.
    static func syncPath(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("cannot open for flushing", path) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure("cannot flush", path) }
    }

    /// Sets a file's modification time (nanoseconds since 1970), as restore
    /// and extraction give files back their recorded times.
    static func setModificationTime(_ path: String, seconds: Int64) {
        var times = [timespec(tv_sec: Int(seconds), tv_nsec: 0), timespec(tv_sec: Int(seconds), tv_nsec: 0)]
        _ = utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW)
    }

    /// Sets permission bits, never following a symbolic link.
    static func setPermissions(_ path: String, _ mode: UInt32) {
        _ = chmod(path, mode_t(mode & 0o7777))
    }

    /// Creates a symbolic link at `path` pointing at `target`.
    static func makeSymbolicLink(_ path: String, target: String) throws {
        guard symlink(target, path) == 0 else { throw failure("cannot create the symbolic link", path) }
    }
}
