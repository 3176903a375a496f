#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// An exclusive `flock` on a named lock file, held until ``release()`` or
/// until the value goes away. The kernel drops it when the process dies, so
/// a killed writer never leaves anything locked.
///
/// The lock for a file `X` is always `.X.lock` beside it
/// (``lockName(for:)``): an app and the command line that both lock a
/// preferences file must agree on that name to exclude each other.
public final class LockFile: Sendable {
    /// The lock file's descriptor, open while the lock is held.
    private let descriptor: Locked<FileDescriptor?>

    private init(_ descriptor: FileDescriptor) { self.descriptor = Locked(descriptor) }

    deinit { release() }

    /// The name of the lock file that guards the file `fileName`: `.<fileName>.lock`.
    public static func lockName(for fileName: String) -> String { ".\(fileName).lock" }

    /// Takes the lock guarding `fileName` in `directory`, creating the lock
    /// file if needed, waiting while another process holds it.
    public static func acquire(for fileName: String, in directory: FileDescriptor,
                               permissions: UInt32 = 0o644) throws(FileSystemError) -> LockFile {
        let name = lockName(for: fileName)
        let fd = try directory.open(name, .readWrite, options: [.create, .noFollow], permissions: permissions)
        return try lock(fd, name)
    }

    /// Takes the lock on the lock file at `path` itself (created if missing).
    public static func acquire(atPath path: String, permissions: UInt32 = 0o644) throws(FileSystemError) -> LockFile {
        let fd = try FileDescriptor.open(atPath: path, .readWrite, options: [.create, .noFollow], permissions: permissions)
        return try lock(fd, path)
    }

    /// Takes the lock guarding `fileName` only if nobody holds it; nil if
    /// another process does.
    public static func tryAcquire(for fileName: String, in directory: FileDescriptor,
                                  permissions: UInt32 = 0o644) throws(FileSystemError) -> LockFile? {
        let name = lockName(for: fileName)
        let fd = try directory.open(name, .readWrite, options: [.create, .noFollow], permissions: permissions)
        if retryingOnInterrupt({ flock(fd.rawValue, LOCK_EX | LOCK_NB) }) == 0 { return LockFile(fd) }
        let failure = FileSystemError(currentErrno, "lock", path: name)
        fd.closeQuietly()
        if failure.errno == .wouldBlock { return nil }
        throw failure
    }

    private static func lock(_ fd: FileDescriptor, _ name: String) throws(FileSystemError) -> LockFile {
        guard retryingOnInterrupt({ flock(fd.rawValue, LOCK_EX) }) == 0 else {
            let failure = FileSystemError(currentErrno, "lock", path: name)
            fd.closeQuietly()
            throw failure
        }
        return LockFile(fd)
    }

    /// Releases the lock (again is a no-op).
    public func release() {
        descriptor.withLock { descriptor in
            guard let fd = descriptor else { return }
            _ = flock(fd.rawValue, LOCK_UN)
            fd.closeQuietly()
            descriptor = nil
        }
    }

    /// Runs `body` holding the lock guarding `fileName` in `directory`.
    public static func withLock<T, E: Error>(for fileName: String, in directory: FileDescriptor,
                                             _ body: () throws(E) -> T) throws -> T {
        let lock = try acquire(for: fileName, in: directory)
        defer { lock.release() }
        return try body()
    }
}

extension FileDescriptor {
    /// An exclusive `flock` on this open file, waiting for it (for a store
    /// that locks the file it reads and writes).
    public func lockExclusive() throws(FileSystemError) {
        guard retryingOnInterrupt({ flock(rawValue, LOCK_EX) }) == 0 else { throw FileSystemError(currentErrno, "lock", path: "") }
    }

    /// Releases a ``lockExclusive()``.
    public func unlock() { _ = flock(rawValue, LOCK_UN) }
}
