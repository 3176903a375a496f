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
    /// `rename(2)`: atomically replaces `to` with `from`.
    static func rename(_ from: String, _ to: String) -> Int32 {
        #if canImport(Glibc)
        Glibc.rename(from, to)
        #else
        Darwin.rename(from, to)
        #endif
    }

    /// Points `path` at `target` atomically: a link made at `scratch` is
    /// renamed over `path`.
    static func replaceWithLink(_ scratch: String, _ path: String, _ target: String) {
        _ = unlink(scratch)
        _ = symlink(target, scratch)
        _ = rename(scratch, path)
    }

    /// Sends SIGKILL to a process.
    static func kill(_ pid: Int32) {
        _ = Glibc.kill(pid, SIGKILL)
    }
}
