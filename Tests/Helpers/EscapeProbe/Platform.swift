// The probe's only libc calls, behind one import ladder. Each returns 0 or
// the errno the kernel gave, so an attempt's outcome is exactly the kernel's.
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Top-level names reach libc's functions, which `Platform`'s members of the
// same name would otherwise shadow.
private func c_link(_ from: String, _ to: String) -> Int32 { link(from, to) }
private func c_rename(_ from: String, _ to: String) -> Int32 { rename(from, to) }
private func c_truncate(_ path: String) -> Int32 { truncate(path, 0) }
// Not imported from Glibc (sys/xattr.h is not in its module map).
@_silgen_name("setxattr")
private func c_setxattr(_ path: UnsafePointer<CChar>, _ name: UnsafePointer<CChar>, _ value: UnsafeRawPointer,
                        _ size: Int, _ flags: Int32) -> Int32

@_silgen_name("name_to_handle_at")
private func c_name_to_handle_at(_ directory: Int32, _ path: UnsafePointer<CChar>, _ handle: UnsafeMutableRawPointer,
                                 _ mountID: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

enum Platform {
    private static func result(_ value: Int32) -> Int32 { value == 0 ? 0 : errno }

    /// Creates (or appends to, with `create: false`) a file and writes a line.
    static func writeFile(_ path: String, create: Bool = true) -> Int32 {
        let flags = O_WRONLY | O_CLOEXEC | (create ? O_CREAT | O_TRUNC : O_APPEND)
        let fd = open(path, flags, 0o644)
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        let line = "escape-probe \(getpid())\n"
        return write(fd, line, line.utf8.count) < 0 ? errno : 0
    }

    static func readFile(_ path: String) -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        var byte: UInt8 = 0
        return read(fd, &byte, 1) < 0 ? errno : 0
    }

    static func listDirectory(_ path: String) -> Int32 {
        guard let dir = opendir(path) else { return errno }
        defer { closedir(dir) }
        return readdir(dir) == nil && errno != 0 ? errno : 0
    }

    static func makeDirectory(_ path: String) -> Int32 { result(mkdir(path, 0o755)) }
    static func removeDirectory(_ path: String) -> Int32 { result(rmdir(path)) }
    static func remove(_ path: String) -> Int32 { result(unlink(path)) }
    static func link(_ from: String, _ to: String) -> Int32 { result(c_link(from, to)) }
    static func symbolicLink(_ target: String, at path: String) -> Int32 { result(symlink(target, path)) }
    static func rename(_ from: String, _ to: String) -> Int32 { result(c_rename(from, to)) }
    static func truncate(_ path: String) -> Int32 { result(c_truncate(path)) }
    static func makeFIFO(_ path: String) -> Int32 { result(mkfifo(path, 0o644)) }
    static func makeExecutable(_ path: String) -> Int32 { result(chmod(path, 0o755)) }

    /// Whether something exists at `path` (stat is not a confined operation,
    /// so this tells a missing target from a denied one).
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// Runs `path` and waits: 0 when it ran and exited 0, else the errno of
    /// the failed exec (glibc's posix_spawn reports it).
    static func run(_ path: String) -> Int32 {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
        defer { argv.forEach { free($0) } }
        let status = posix_spawn(&pid, path, nil, nil, argv, environ)
        guard status == 0 else { return status }
        var exit: Int32 = 0
        _ = waitpid(pid, &exit, 0)
        return exit == 0 ? 0 : EIO
    }

    /// `open(O_PATH)`: a handle for `fstat` and `*at` calls, which needs
    /// no read permission and which Landlock does not check.
    static func openPathOnly(_ path: String) -> Int32 {
        let fd = open(path, 0o10000000 | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return errno }
        close(fd)
        return 0
    }
    /// `fchdir` through a descriptor opened for reading (which Landlock checks).
    static func changeDirectoryThroughDescriptor(_ path: String) -> Int32 {
        let back = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if back >= 0 { _ = fchdir(back); close(back) } }
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        return result(fchdir(fd))
    }
    /// `name_to_handle_at`, which tells a file's handle without opening it.
    static func fileHandle(_ path: String) -> Int32 {
        // struct file_handle: u32 handle_bytes, i32 handle_type, then up to 128 bytes.
        var handle = [UInt8](repeating: 0, count: 8 + 128)
        withUnsafeBytes(of: UInt32(128)) { handle.replaceSubrange(0..<4, with: $0) }
        var mountID: Int32 = 0
        let answer = handle.withUnsafeMutableBytes { raw in
            c_name_to_handle_at(AT_FDCWD, path, raw.baseAddress!, &mountID, 0)
        }
        return result(answer)
    }
    static func changeMode(_ path: String, _ mode: mode_t) -> Int32 { result(chmod(path, mode)) }
    static func changeOwner(_ path: String) -> Int32 { result(chown(path, getuid(), getgid())) }
    /// Explicit times: only the owner (or a privileged process) may.
    static func setTimes(_ path: String) -> Int32 {
        var times = [timespec(tv_sec: 86400, tv_nsec: 0), timespec(tv_sec: 86400, tv_nsec: 0)]
        return result(utimensat(AT_FDCWD, path, &times, 0))
    }
    /// The current time: anyone who may write the file may.
    static func touch(_ path: String) -> Int32 { result(utimensat(AT_FDCWD, path, nil, 0)) }
    static func setExtendedAttribute(_ path: String) -> Int32 {
        var value: UInt8 = 1
        return result(c_setxattr(path, "user.escape-probe", &value, 1, 0))
    }

    /// The real and effective user and group ids.
    static var ids: (uid: UInt32, euid: UInt32, gid: UInt32, egid: UInt32) { (getuid(), geteuid(), getgid(), getegid()) }

    /// The `Cap*` and `NoNewPrivs` lines of `/proc/self/status`, by name.
    static func privilegeStatus() -> [String: String] {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return [:] }
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("Cap") || line.hasPrefix("NoNewPrivs") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            values[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces)
        }
        return values
    }

    static var processID: Int32 { getpid() }
    static let notSupported = EOPNOTSUPP
    static let permissionDenied = EACCES
    static let notFound = ENOENT
    static func describe(_ e: Int32) -> String { String(cString: strerror(e)) }
}
