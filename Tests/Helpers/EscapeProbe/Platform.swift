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

    static var processID: Int32 { getpid() }
    static let permissionDenied = EACCES
    static let notFound = ENOENT
    static func describe(_ e: Int32) -> String { String(cString: strerror(e)) }
}
