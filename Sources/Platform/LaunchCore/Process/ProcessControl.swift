// Signals, process existence and terminal checks: the package's process
// control, kept here (Foundation-free, beside the trampoline) so that Launch,
// Device and the command line make no libc calls of their own.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Process control for the package: signals, whether a process exists, its
/// `/proc` facts, spawning and reaping (see the extensions in this folder).
///
/// ```swift
/// if ProcessControl.exists(pid) { try ProcessControl.sendSignal(ProcessControl.signalTerminate, to: pid) }
/// ```
public enum ProcessControl {
    /// `ESRCH`: no such process.
    public static let noSuchProcess: Int32 = ESRCH
    /// `ETXTBSY`: the program file is still open for writing somewhere.
    public static let textFileBusy: Int32 = ETXTBSY
    /// `SIGTERM`.
    public static let signalTerminate: Int32 = SIGTERM
    /// `SIGKILL`.
    public static let signalKill: Int32 = SIGKILL
    /// `SIGINT`.
    public static let signalInterrupt: Int32 = SIGINT
    /// `SIGHUP`.
    public static let signalHangup: Int32 = SIGHUP

    /// Whether this process runs as root (effective uid 0): a launch then
    /// hands data directories to the app's user and the trampoline drops to it.
    public static var isPrivileged: Bool { geteuid() == 0 }

    /// This process's id.
    public static var currentProcessID: Int32 { getpid() }

    /// This process's parent's id. It changes (to an ancestor that reaps
    /// orphans, or to 1) the moment the parent exits, even while the parent
    /// is still a zombie, so a child can tell that its parent has ended.
    public static var parentProcessID: Int32 { getppid() }

    /// Whether a process with `pid` exists; a zombie counts, and so does one
    /// owned by another user (`EPERM`).
    public static func exists(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// Sends `signal` to `pid`.
    public static func sendSignal(_ signal: Int32, to pid: Int32) throws(SystemFailure) {
        guard kill(pid, signal) == 0 else { throw SystemFailure.current }
    }

    /// Whether the descriptor is a terminal (progress bars are drawn only there).
    public static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// The standard streams' descriptor numbers.
    public static let standardInput: Int32 = 0
    public static let standardOutput: Int32 = 1
    public static let standardError: Int32 = 2
}
