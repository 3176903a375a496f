import FileSystem
import Foundation

/// A program started by ``ConfinedLaunch/start()``: its pid, the confinement
/// it got, and control over it. The launcher is its parent, so it can wait
/// for it; a process started by another launcher is reached through its
/// ``ProcessIdentity``.
public final class LaunchedProcess: Sendable {
    /// The program's process id.
    public let pid: Int32
    /// The pid with the process's start time, to store and check later.
    public let identity: ProcessIdentity
    private struct State {
        var confinement: Confinement
        var status: ExitStatus?
    }

    private let state: Locked<State>

    init(pid: Int32, confinement: Confinement) {
        self.pid = pid
        self.identity = ProcessIdentity(pid: pid)
        self.state = Locked(State(confinement: confinement))
    }

    /// What confinement the program got.
    public internal(set) var confinement: Confinement {
        get { state.withLock { $0.confinement } }
        set { state.withLock { $0.confinement = newValue } }
    }

    /// How the program ended, once it has and was waited for (see ``poll()``).
    public var exitStatus: ExitStatus? { state.withLock { $0.status } }

    /// Waits for the program to end and returns how it ended. Safe to call
    /// again (it returns the same status).
    public func wait() throws -> ExitStatus {
        try reap(block: true) ?? ExitStatus(rawWaitStatus: 0)
    }

    /// How the program ended, or nil while it runs; collects it if it has ended.
    public func poll() throws -> ExitStatus? {
        try reap(block: false)
    }

    /// Whether the program still runs.
    public var isRunning: Bool { ((try? poll()) ?? nil) == nil }

    /// Sends `signal` (by default SIGTERM, the will-terminate request) unless
    /// the program has already been collected, so a later process that reused
    /// the pid is never hit.
    public func terminate(_ signal: LaunchSignal = .terminate) throws {
        try state.withLock { state in
            guard state.status == nil else { return }
            do { try ProcessControl.sendSignal(signal.rawValue, to: pid) } catch let failure as SystemFailure {
                throw LaunchError(.signalFailed, failure, path: String(pid), "signal the process")
            }
        }
    }

    private func reap(block: Bool) throws -> ExitStatus? {
        if let status = exitStatus { return status }
        // Not under the lock: a blocking wait must not hold up `terminate`.
        let raw: Int32?
        do {
            raw = try ProcessControl.wait(pid, block: block)
        } catch let failure {
            // Another thread collected it first.
            if let status = exitStatus { return status }
            throw LaunchError(.waitFailed, failure, path: String(pid), "wait for the process")
        }
        guard let raw else { return nil }
        let ended = ExitStatus(rawWaitStatus: raw)
        state.withLock { $0.status = ended }
        return ended
    }
}

/// How a process ended.
public enum ExitStatus: Sendable, Hashable, CustomStringConvertible {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it.
    case signaled(Int32)

    init(rawWaitStatus: Int32) {
        let decoded = ProcessControl.decodeWaitStatus(rawWaitStatus)
        self = decoded.signal.map { .signaled($0) } ?? .exited(decoded.exitCode ?? 0)
    }

    /// The status a shell reports: the exit status, or 128 + the signal.
    public var shellStatus: Int32 {
        switch self {
        case .exited(let code): return code
        case .signaled(let signal): return 128 + signal
        }
    }

    /// Whether the process exited with status 0.
    public var succeeded: Bool { self == .exited(0) }

    /// "exit status N" or "signal N".
    public var description: String {
        switch self {
        case .exited(let code): return "exit status \(code)"
        case .signaled(let signal): return "signal \(signal)"
        }
    }
}

/// A signal to send to a launched program.
public struct LaunchSignal: RawRepresentable, Sendable, Hashable {
    /// The signal number.
    public var rawValue: Int32
    /// Wraps a signal number.
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// SIGTERM: the will-terminate request a program may handle.
    public static let terminate = LaunchSignal(rawValue: ProcessControl.signalTerminate)
    /// SIGKILL: ends the program at once.
    public static let kill = LaunchSignal(rawValue: ProcessControl.signalKill)
    /// SIGINT.
    public static let interrupt = LaunchSignal(rawValue: ProcessControl.signalInterrupt)
    /// SIGHUP.
    public static let hangup = LaunchSignal(rawValue: ProcessControl.signalHangup)
}
