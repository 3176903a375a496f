import FileSystem
import Foundation

/// iOS's launch watchdog: an app that does not finish launching within a
/// limit is killed, and the crash report says why (termination code
/// `0x8badf00d`, "ate bad food"). The classic cause is slow work on the
/// launch path, such as moving a large `Documents` in
/// `didFinishLaunching`; that work belongs in the background (see
/// ``AppContext/startDocumentsMigration(to:progress:)``).
///
/// The limit is 20 seconds unless the device sets another
/// (``Device/setLaunchWatchdogLimit(_:)``) or the launch does
/// (``LaunchOptions/watchdogLimit``); tests set it low.
public enum LaunchWatchdog {
    /// The limit when neither the device nor the launch sets one: 20 seconds.
    public static let defaultLimit: TimeInterval = 20
    /// The termination code of a watchdog kill in iOS's crash reports.
    public static let terminationCode: UInt32 = 0x8bad_f00d
}

/// Why the system ended an app.
public enum TerminationReason: String, Codable, Sendable, Hashable {
    /// The launch took longer than the watchdog's limit
    /// (``LaunchWatchdog/terminationCode``).
    case watchdogTimeout = "watchdog timeout"
}

/// How a launch ended.
public enum LaunchOutcome: String, Codable, Sendable, Hashable {
    /// The app finished launching within the limit.
    case finished
    /// The app was killed before it finished launching.
    case killed
    /// The app's launch code threw (it ended without being killed).
    case failed
}

/// What the device recorded about an app's last launch, as iOS's crash
/// reports do for a watchdog kill (``Device/lastLaunchReport(_:)``).
public struct LaunchReport: Codable, Sendable, Hashable {
    /// The app.
    public var bundleID: String
    /// When the launch began.
    public var started: Date
    /// Seconds from the start of the app's launch code until it returned,
    /// or until the kill.
    public var duration: TimeInterval
    /// The watchdog's limit for this launch, in seconds.
    public var limit: TimeInterval
    /// How the launch ended.
    public var outcome: LaunchOutcome
    /// Why the app was killed, when it was.
    public var reason: TerminationReason?
    /// The termination code, when killed (`0x8badf00d` for the watchdog).
    public var terminationCode: UInt32?

    /// Creates a report.
    public init(bundleID: String, started: Date, duration: TimeInterval, limit: TimeInterval, outcome: LaunchOutcome,
                reason: TerminationReason? = nil, terminationCode: UInt32? = nil) {
        self.bundleID = bundleID
        self.started = started
        self.duration = duration
        self.limit = limit
        self.outcome = outcome
        self.reason = reason
        self.terminationCode = terminationCode
    }

    /// The termination code as iOS prints it (`0x8badf00d`), when killed.
    public var terminationCodeText: String? { terminationCode.map { "0x" + String($0, radix: 16) } }

    /// One line for people.
    public var summary: String {
        switch outcome {
        case .finished:
            return "\(bundleID) launched in \(Self.seconds(duration)) (limit \(Self.seconds(limit)))"
        case .failed:
            return "\(bundleID) failed to launch after \(Self.seconds(duration))"
        case .killed:
            return "\(bundleID) was killed after \(Self.seconds(duration)): \(reason?.rawValue ?? "killed")"
                + (terminationCodeText.map { " (\($0))" } ?? "") + ", limit \(Self.seconds(limit))"
        }
    }

    private static func seconds(_ value: TimeInterval) -> String { String(format: "%.3f s", value) }
}

/// The system's hold on a running app's code: set when the app is killed
/// (by the launch watchdog), so long work the app runs through the
/// device's helpers (``AppContext/migrateDocuments(to:progress:)``) stops
/// at its next step, as the killed process would have stopped.
///
/// An in-process app shares this process, which the watchdog cannot kill
/// without killing its caller; its launch code runs on a thread of its
/// own, is abandoned when the limit passes, and stops at its next check of
/// ``isTerminated``.
public final class AppTermination: Sendable {
    private let stored = Locked<TerminationReason?>(nil)

    init() {}

    /// Whether the app was killed.
    public var isTerminated: Bool { stored.withLock { $0 != nil } }
    /// Why, once killed.
    public var reason: TerminationReason? { stored.withLock { $0 } }

    func terminate(_ reason: TerminationReason) { stored.withLock { if $0 == nil { $0 = reason } } }
}

extension Device {
    /// The launch watchdog's limit on this device, in seconds (20 unless set).
    public var launchWatchdogLimit: TimeInterval {
        let record = try? RecordFile.read(DeviceRecord.self, from: layout.devicePlist)
        return record?.launchWatchdogLimit ?? LaunchWatchdog.defaultLimit
    }

    /// Sets (nil: resets to 20 seconds) the launch watchdog's limit on this
    /// device, kept in `device.plist` for every later launch.
    ///
    /// - Throws: ``DeviceErrorCode/invalidSetting`` for a limit that is
    ///   not a positive number of seconds.
    public func setLaunchWatchdogLimit(_ seconds: TimeInterval?) throws {
        if let seconds, !(seconds > 0 && seconds.isFinite) {
            throw DeviceError(.invalidSetting, path: layout.devicePlist.path, "the launch watchdog's limit must be a positive number of seconds")
        }
        try withDeviceLock {
            guard var record = try RecordFile.read(DeviceRecord.self, from: layout.devicePlist) else {
                throw DeviceError(.notADevice, path: root.path, "no device at \(root.path)")
            }
            record.launchWatchdogLimit = seconds
            try RecordFile.write(record, to: layout.devicePlist)
        }
    }

    /// The report of the app's last launch (finished, failed, or killed by
    /// the watchdog), or nil before its first.
    public func lastLaunchReport(_ bundleID: String) -> LaunchReport? {
        try? RecordFile.read(LaunchReport.self, from: layout.launchReport(bundleID))
    }

    func writeLaunchReport(_ report: LaunchReport) throws {
        try makeDirectories(layout.launchReports.path, bundleID: report.bundleID)
        try RecordFile.write(report, to: layout.launchReport(report.bundleID), durability: .fileOnly)
    }
}
