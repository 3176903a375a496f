// The benchmark's only libc calls: the plain fork/exec baseline.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

enum Platform {
    /// posix_spawn + waitpid of `path` with no arguments; false on failure.
    static func spawnAndWait(_ path: String) -> Bool {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, path, nil, nil, argv, environ) == 0 else { return false }
        var status: Int32 = 0
        return waitpid(pid, &status, 0) == pid && status == 0
    }
}
