#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

extension FileDescriptor {
    /// `fstat` of this descriptor.
    public func status() throws(FileSystemError) -> FileStatus {
        var info = CStat()
        guard fstat(rawValue, &info) == 0 else { throw FileSystemError(currentErrno, "read the status of", path: "") }
        return FileStatus(info)
    }

    /// `fstatat` of `name` in this directory; links are not followed unless
    /// `followLinks`.
    public func status(of name: String, followLinks: Bool = false) throws(FileSystemError) -> FileStatus {
        var info = CStat()
        let result = retryingOnInterrupt { fstatat(rawValue, name, &info, followLinks ? 0 : AT_SYMLINK_NOFOLLOW) }
        guard result == 0 else { throw FileSystemError(currentErrno, "read the status of", path: name) }
        return FileStatus(info)
    }

    /// The status of `name`, or nil when nothing is there (`ENOENT`, or a
    /// component that is not a directory).
    public func statusIfPresent(of name: String, followLinks: Bool = false) throws(FileSystemError) -> FileStatus? {
        do { return try status(of: name, followLinks: followLinks) } catch {
            if error.isNotFound || error.isNotDirectory { return nil }
            throw error
        }
    }

    /// The target of the symbolic link `name` in this directory.
    public func readLink(_ name: String) throws(FileSystemError) -> String {
        try Self.readLink(rawValue, name)
    }

    static func readLink(_ dir: Int32, _ name: String) throws(FileSystemError) -> String {
        var buffer = [CChar](repeating: 0, count: 4097)
        let count = readlinkat(dir, name, &buffer, 4096)
        guard count >= 0 else { throw FileSystemError(currentErrno, "read the link", path: name) }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Sets the permission bits (`fchmod`; `mode & 0o7777`).
    public func setPermissions(_ mode: UInt32) throws(FileSystemError) {
        guard fchmod(rawValue, mode_t(mode & 0o7777)) == 0 else {
            throw FileSystemError(currentErrno, "change the permissions of", path: "")
        }
    }

    /// Sets the permission bits of `name` in this directory without
    /// following a link (a link's own mode cannot change on Linux: a link
    /// there is left as it is).
    public func setPermissions(of name: String, _ mode: UInt32) throws(FileSystemError) {
        let fd: FileDescriptor
        do { fd = try open(name, .readOnly, options: [.noFollow, .nonBlocking]) } catch {
            if error.isLoop { return }
            throw error
        }
        defer { fd.closeQuietly() }
        try fd.setPermissions(mode)
    }

    /// Sets the access and modification times (nanoseconds since 1970) of
    /// `name` in this directory, never following a link.
    public func setModificationTime(of name: String, nanoseconds: Int64) throws(FileSystemError) {
        let time = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var times = [time, time]
        guard utimensat(rawValue, name, &times, AT_SYMLINK_NOFOLLOW) == 0 else {
            throw FileSystemError(currentErrno, "set the time of", path: name)
        }
    }

    /// Sets this file's access and modification times (nanoseconds since 1970).
    public func setModificationTime(nanoseconds: Int64) throws(FileSystemError) {
        let time = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var times = [time, time]
        guard futimens(rawValue, &times) == 0 else { throw FileSystemError(currentErrno, "set the time of", path: "") }
    }

    /// Changes the owner (`fchown`), for a process that may.
    public func setOwner(user: UInt32, group: UInt32) throws(FileSystemError) {
        guard fchown(rawValue, uid_t(user), gid_t(group)) == 0 else {
            throw FileSystemError(currentErrno, "change the owner of", path: "")
        }
    }
}
