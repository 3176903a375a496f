import Foundation

/// A process named so it can be found again by another process (a later
/// `sandbox terminate`, a purge that must spare running apps): its pid and
/// its start time, which a later process reusing the pid does not share.
public struct ProcessIdentity: Codable, Sendable, Hashable {
    /// The process id.
    public var pid: Int32
    /// Clock ticks since boot when the process started; nil where the system
    /// cannot tell (no procfs), and then only the pid is checked.
    public var startTime: UInt64?

    /// The identity of the live process `pid` (its start time read now).
    public init(pid: Int32) {
        self.pid = pid
        self.startTime = ProcessControl.startTime(of: pid)
    }

    /// An identity as recorded earlier.
    public init(pid: Int32, startTime: UInt64?) {
        self.pid = pid
        self.startTime = startTime
    }

    /// Whether this very process still runs: the pid exists, is not a
    /// zombie, and started at the recorded time.
    public var isAlive: Bool {
        guard pid > 0, ProcessControl.exists(pid) else { return false }
        guard let stat = ProcessStat.read(pid) else { return startTime == nil }
        guard stat.state != "Z" && stat.state != "X" else { return false }
        return startTime.map { $0 == stat.startTime } ?? true
    }

    /// This process.
    public static var current: ProcessIdentity { ProcessIdentity(pid: ProcessControl.currentProcessID) }

    /// Waits up to `timeout` seconds for the process to end (polling, as it
    /// need not be a child of this one); returns whether it ended.
    public func waitForExit(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while isAlive {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }

    /// Sends `signal` if this process still runs; returns whether it did.
    @discardableResult
    public func send(_ signal: LaunchSignal) throws -> Bool {
        guard isAlive else { return false }
        do {
            try ProcessControl.sendSignal(signal.rawValue, to: pid)
            return true
        } catch let failure where failure.errno == ProcessControl.noSuchProcess {
            return false
        } catch let failure {
            throw LaunchError(.signalFailed, failure, path: String(pid), "signal the process")
        }
    }
}
