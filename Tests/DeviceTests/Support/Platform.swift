// The test target's only libc calls, behind one import ladder.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// libc calls the tests need (named so they do not clash with Foundation's).
enum LibC {
    /// Sends SIGKILL to a process.
    static func kill(_ pid: Int32) {
        _ = Glibc.kill(pid, SIGKILL)
    }

    /// Whether the tests run as root (launched apps then run as 501).
    static var isRoot: Bool { geteuid() == 0 }

    /// Sleeps for `microseconds`.
    static func sleep(microseconds: UInt32) {
        _ = usleep(microseconds)
    }
}
