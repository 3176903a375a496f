// The benchmark's only libc calls: the bare system-call sequences ours are
// measured against (those of Scripts/atomic_sequences.c, replayed in this
// process so they share its rounds), and the load average. The bare open
// and lstat are container-benchmark's (run by the same script).
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if os(Linux)
// Glibc's module map hides these GNU ones; the benchmark's own bare
// declarations of them, as atomic_sequences.c gets them from <fcntl.h>.
@_silgen_name("renameat2")
private func plain_renameat2(_ olddirfd: Int32, _ oldpath: UnsafePointer<CChar>, _ newdirfd: Int32,
                             _ newpath: UnsafePointer<CChar>, _ flags: UInt32) -> Int32
private let plainRenameExchange: UInt32 = 2
/// `O_TMPFILE` (with `O_DIRECTORY`, as the kernel requires).
private let plainTemporaryFile: Int32 = 0o20000000 | O_DIRECTORY
#endif

enum Plain {
    /// atomic_sequences.c's sequences, with bare calls: `open(O_EXCL)`,
    /// `write`, `fsync`, `close`, `renameat` over `name` (sequence 0,
    /// Foundation's order, one flush), then with `flushDirectory`
    /// `fsync(dir)` (sequence 1, two flushes). False if a call failed.
    static func replace(_ directory: Int32, _ name: String, _ bytes: [UInt8], flushDirectory: Bool) -> Bool {
        let fd = openat(directory, ".plain.tmp", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let flushed = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, flushed, renameat(directory, ".plain.tmp", directory, name) == 0 else {
            _ = unlinkat(directory, ".plain.tmp", 0)
            return false
        }
        return !flushDirectory || fsync(directory) == 0
    }

    /// atomic_sequences.c's best two-flush sequence (3): an unnamed file
    /// (`O_TMPFILE`) written and flushed, linked as `.plain.tmp`, its name
    /// exchanged with `name` (`RENAME_EXCHANGE`), `fsync(dir)`. The old file
    /// is left under `.plain.tmp`, for ``removeExchanged(_:)`` to unlink off
    /// the clock, as the C program does. False if a call failed (or where
    /// `O_TMPFILE` and `renameat2` are missing).
    static func replaceExchanging(_ directory: Int32, _ name: String, _ bytes: [UInt8]) -> Bool {
        #if os(Linux)
        let fd = openat(directory, ".", plainTemporaryFile | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(fd) == 0,
              linkat(AT_FDCWD, "/proc/self/fd/\(fd)", directory, ".plain.tmp", AT_SYMLINK_FOLLOW) == 0 else { return false }
        return exchangeAndFlush(directory, name)
        #else
        return false
        #endif
    }

    /// atomic_sequences.c's sequence (2), the best that is also safe on a
    /// file system without a journal: a named temporary file written and
    /// flushed (its flush writes its link count and its entry), exchanged
    /// with `name`, `fsync(dir)`; the old file is left under `.plain.tmp`
    /// for ``removeExchanged(_:)``, off the clock. (Sequence 3 flushes the
    /// unnamed file before it has a link, so its link count of one reaches
    /// the disk only by writeback on such a file system: until then a power
    /// loss leaves `name` on an inode with no links, neither file.)
    static func replaceExchangingNamed(_ directory: Int32, _ name: String, _ bytes: [UInt8]) -> Bool {
        #if os(Linux)
        let fd = openat(directory, ".plain.tmp", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let flushed = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, flushed else {
            _ = unlinkat(directory, ".plain.tmp", 0)
            return false
        }
        return exchangeAndFlush(directory, name)
        #else
        return false
        #endif
    }

    #if os(Linux)
    /// The two exchanging sequences' end: `.plain.tmp` and `name` swapped,
    /// then `fsync(dir)`.
    private static func exchangeAndFlush(_ directory: Int32, _ name: String) -> Bool {
        guard plain_renameat2(directory, ".plain.tmp", directory, name, plainRenameExchange) == 0 else {
            _ = unlinkat(directory, ".plain.tmp", 0)
            return false
        }
        return fsync(directory) == 0
    }
    #endif

    /// Unlinks what ``replaceExchanging(_:_:_:)`` left under `.plain.tmp`.
    static func removeExchanged(_ directory: Int32) {
        _ = unlinkat(directory, ".plain.tmp", 0)
    }

    /// The 1-minute load average, for the report.
    static func loadAverage() -> Double {
        var loads = [Double](repeating: 0, count: 3)
        return getloadavg(&loads, 3) > 0 ? loads[0] : -1
    }
}
