// The test target's only libc names, behind one import ladder.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

enum LibC {
    /// The errors by which the kernel refuses an access: Landlock answers
    /// `EACCES`, or `EXDEV` for links and renames across hierarchies; the
    /// launcher's seccomp filter `EOPNOTSUPP` for `O_PATH` and file handles.
    static let denials: Set<Int32> = [EACCES, EPERM, EXDEV, EOPNOTSUPP]
    static let permissionDenied = EACCES
    static let terminateSignal = SIGTERM

    /// Opens `path` for appending *without* close-on-exec, as careless code
    /// in a launcher might; returns the descriptor.
    static func openInheritable(_ path: String) -> Int32 {
        open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
    }

    static func closeDescriptor(_ fd: Int32) { _ = close(fd) }

    /// Whether the tests run as root (the launch then drops to the app user).
    static var isRoot: Bool { geteuid() == 0 }
}
