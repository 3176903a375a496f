// The module's only platform conditionals and libc calls: reading, writing,
// renaming and locking the preferences files that live outside a container
// (a domain named by a plist path, as `sandbox defaults` allows).
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

enum Platform {
    /// A failed system call: its name and `errno`.
    struct CallError: Error {
        var call: String
        var code: Int32
        var reason: String { String(cString: strerror(code)) }
        var isNotFound: Bool { code == ENOENT }
    }

    /// The whole file at `path`, or `nil` if it does not exist.
    static func readFile(_ path: String) throws(CallError) -> Data? {
        let fd = retrying { open(path, O_RDONLY | O_CLOEXEC) }
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw CallError(call: "open", code: errno)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw CallError(call: "fstat", code: errno) }
        var result = Data()
        result.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: max(Int(info.st_size) + 1, 4096))
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                retrying { read(fd, buffer.baseAddress, buffer.count) }
            }
            if count < 0 { throw CallError(call: "read", code: errno) }
            if count == 0 { return result }
            result.append(contentsOf: chunk[0..<count])
        }
    }

    /// Writes `data` to a new file at `temporaryPath` and renames it over
    /// `path`, so a reader or a crash sees the old file or the new one.
    /// With `durable`, the file and then its directory are flushed to disk.
    static func replaceFile(_ path: String, with data: Data, temporaryPath: String, durable: Bool) throws(CallError) {
        let fd = retrying { open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw CallError(call: "open", code: errno) }
        var failure: CallError?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = retrying { write(fd, buffer.baseAddress.map { $0 + offset }, buffer.count - offset) }
                if count < 0 { failure = CallError(call: "write", code: errno); return }
                offset += count
            }
        }
        if failure == nil, durable, fsync(fd) != 0 { failure = CallError(call: "fsync", code: errno) }
        if close(fd) != 0, failure == nil { failure = CallError(call: "close", code: errno) }
        if failure == nil, rename(temporaryPath, path) != 0 { failure = CallError(call: "rename", code: errno) }
        if let failure {
            unlink(temporaryPath)
            throw failure
        }
        if durable {
            let directory = (path as NSString).deletingLastPathComponent
            let directoryFD = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if directoryFD >= 0 {
                defer { close(directoryFD) }
                if fsync(directoryFD) != 0 { throw CallError(call: "fsync", code: errno) }
            }
        }
    }

    /// Runs `body` holding an exclusive `flock` on `lockPath` (created if missing).
    static func withExclusiveLock<T>(_ lockPath: String, _ body: () throws -> T) throws -> T {
        let fd = retrying { open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw CallError(call: "open", code: errno) }
        defer { close(fd) }
        guard retrying({ flock(fd, LOCK_EX) }) == 0 else { throw CallError(call: "flock", code: errno) }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    /// This process's identifier, for unique temporary names.
    static var processIdentifier: Int32 { getpid() }

    /// Retries a call interrupted by a signal.
    private static func retrying<T: BinaryInteger>(_ call: () -> T) -> T {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }
}
