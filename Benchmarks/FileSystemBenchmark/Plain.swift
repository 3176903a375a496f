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

    /// The 1-minute load average, for the report.
    static func loadAverage() -> Double {
        var loads = [Double](repeating: 0, count: 3)
        return getloadavg(&loads, 3) > 0 ? loads[0] : -1
    }
}
