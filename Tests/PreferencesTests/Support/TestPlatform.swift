// The test target's only libc call: SIGKILL, which `Process` cannot send.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

enum TestPlatform {
    /// Kills `pid` at once, as a crash or the system's jetsam would.
    static func killImmediately(_ pid: Int32) {
        kill(pid, SIGKILL)
    }
}
