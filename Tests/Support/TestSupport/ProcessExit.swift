import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How a child process ended: its exit code, or the signal that ended it.
public struct ChildExit: Sendable, Equatable {
    public var exitCode: Int32?
    public var signal: Int32?

    /// The exit code, or the signal's number (as `Process.terminationStatus` gives).
    public var status: Int32 { exitCode ?? signal ?? 0 }
    /// Whether a signal ended it (`Process.terminationReason == .uncaughtSignal`).
    public var wasSignalled: Bool { signal != nil }
}

extension Process {
    /// Waits until the child has ended and says how, without relying on
    /// Foundation's child monitor: under a full parallel test run,
    /// `waitUntilExit` once never returned for a child that had already
    /// exited (its SIGCHLD was lost), and the whole run hung. `waitid` with
    /// `WNOWAIT` sees the ended child without reaping it, so Foundation's
    /// own bookkeeping is left as it is.
    @discardableResult
    public func waitForExit() -> ChildExit {
        let pid = processIdentifier
        var info = siginfo_t()
        while true {
            if waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == 0 { break }
            if errno == EINTR { continue }
            // ECHILD: Foundation reaped it first; its answer is (or is
            // about to be) recorded.
            while isRunning { usleep(1_000) }
            return terminationReason == .uncaughtSignal ? ChildExit(exitCode: nil, signal: terminationStatus)
                : ChildExit(exitCode: terminationStatus, signal: nil)
        }
        let status = info._sifields._sigchld.si_status
        return info.si_code == CLD_EXITED ? ChildExit(exitCode: status, signal: nil) : ChildExit(exitCode: nil, signal: status)
    }
}
