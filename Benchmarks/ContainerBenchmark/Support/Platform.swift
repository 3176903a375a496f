// The benchmark's only libc calls: the plain system calls the confined
// operations are compared with.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

enum Plain {
    /// `open(path, O_RDONLY)` then `close`; false if the open failed.
    static func openAndClose(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        close(fd)
        return true
    }

    /// `lstat(path)` (the container's `attributes` describes a link itself);
    /// the size, or -1 if the call failed.
    static func size(_ path: String) -> Int {
        var info = stat()
        guard lstat(path, &info) == 0 else { return -1 }
        return Int(info.st_size)
    }

    /// The 1-minute load average, for the report.
    static func loadAverage() -> Double {
        var loads = [Double](repeating: 0, count: 3)
        return getloadavg(&loads, 3) > 0 ? loads[0] : -1
    }
}
