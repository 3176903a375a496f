import Container
@testable import Device
import Foundation
import TestSupport
import Testing

/// The launch watchdog: a launch past the limit is killed and reported
/// (`0x8badf00d`), and the same Documents migration that gets an app
/// killed on the launch path completes in the background after a fast launch.
@Suite struct LaunchWatchdogTests {
    static let bundleID = "com.example.notes"

    @Test func aLaunchPastTheLimitIsKilledAndReported() throws {
        let fixture = try DeviceFixture("watchdog")
        _ = try fixture.install()
        let run = try fixture.device.run(Self.bundleID, delegate: SlowLaunchDelegate(seconds: 30))
        let started = Date()
        do {
            try run.launch(options: LaunchOptions(watchdogLimit: 0.2))
            Issue.record("the slow launch was not killed")
        } catch let error as DeviceError {
            #expect(error.code == .watchdogTimeout)
            #expect(error.message.contains("0x8badf00d"))
        }
        // Killed at the limit, not after the delegate's 30 s.
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(run.state == .notRunning)
        #expect(try !fixture.device.isRunning(Self.bundleID))
        let report = try #require(fixture.device.lastLaunchReport(Self.bundleID))
        #expect(report.outcome == .killed)
        #expect(report.reason == .watchdogTimeout)
        #expect(report.terminationCode == 0x8bad_f00d)
        #expect(report.terminationCodeText == "0x8badf00d")
        #expect(report.duration >= 0.2 && report.limit == 0.2)

        // The next launch of a well-behaved app is fine, and reported so.
        let again = try fixture.device.run(Self.bundleID, delegate: RecordingDelegate())
        try again.launch(options: LaunchOptions(watchdogLimit: 5))
        #expect(again.state == .inactive)
        #expect(fixture.device.lastLaunchReport(Self.bundleID)?.outcome == .finished)
        try again.terminate()
    }

    @Test func theDeviceKeepsItsLimitAndALaunchMayOverrideIt() throws {
        let fixture = try DeviceFixture("watchdog-limit")
        _ = try fixture.install()
        #expect(fixture.device.launchWatchdogLimit == LaunchWatchdog.defaultLimit)
        #expect(LaunchWatchdog.defaultLimit == 20)
        try fixture.device.setLaunchWatchdogLimit(0.2)
        #expect(try Device.open(at: fixture.device.root).launchWatchdogLimit == 0.2)
        #expect(throws: DeviceError.self) { try fixture.device.setLaunchWatchdogLimit(-1) }

        let slow = try fixture.device.run(Self.bundleID, delegate: SlowLaunchDelegate(seconds: 0.6))
        #expect(throws: DeviceError.self) { try slow.launch() }
        #expect(fixture.device.lastLaunchReport(Self.bundleID)?.limit == 0.2)

        let allowed = try fixture.device.run(Self.bundleID, delegate: SlowLaunchDelegate(seconds: 0.6))
        try allowed.launch(options: LaunchOptions(watchdogLimit: 10))
        #expect(allowed.state == .inactive)
        try allowed.terminate()
        try fixture.device.setLaunchWatchdogLimit(nil)
        #expect(fixture.device.launchWatchdogLimit == 20)
    }

    @Test func theSameMigrationIsKilledOnTheLaunchPathAndCompletesInTheBackground() throws {
        let fixture = try DeviceFixture("watchdog-migrate")
        let app = try fixture.install()
        let container = try app.dataContainer()
        var expected: [String: Data] = [:]
        for folder in 0..<60 {
            try container.createDirectory("Documents/album\(folder)")
            for photo in 0..<100 {
                let data = Data("photo \(folder)/\(photo) ".utf8) + Data(repeating: UInt8(photo), count: photo * 7)
                try container.writeAtomically(data, to: "Documents/album\(folder)/\(photo).jpg", durability: .none)
                expected["album\(folder)/\(photo).jpg"] = data
            }
        }
        let limit = 0.5

        // On the launch path: killed by the watchdog, and reported.
        let onLaunch = try fixture.device.run(Self.bundleID, delegate: LaunchPathMigrationDelegate())
        let error = #expect(throws: DeviceError.self) { try onLaunch.launch(options: LaunchOptions(watchdogLimit: limit)) }
        #expect(error?.code == .watchdogTimeout)
        let killed = try #require(fixture.device.lastLaunchReport(Self.bundleID))
        #expect(killed.outcome == .killed && killed.reason == .watchdogTimeout && killed.terminationCode == 0x8bad_f00d)
        #expect(try !fixture.device.isRunning(Self.bundleID))
        // The move stopped part way: every photo is in one place, the job is pending.
        let pending = try #require(try fixture.device.pendingDocumentsMigration(of: Self.bundleID))
        #expect(!pending.isFinished)
        try Self.expectEachFileOnce(expected, container)

        // In the background: the launch is fast, the move completes with progress.
        let background = BackgroundMigrationDelegate()
        let run = try fixture.device.run(Self.bundleID, delegate: background)
        try run.launch(options: LaunchOptions(watchdogLimit: limit))
        let launched = try #require(fixture.device.lastLaunchReport(Self.bundleID))
        #expect(launched.outcome == .finished)
        #expect(launched.duration < limit)
        try run.activate()
        let task = try #require(background.task)
        let report = try task.wait()
        #expect(report.resumed)
        // What the killed launch finished is not this run's.
        #expect(report.moved + report.alreadyMoved == report.totalItems - pending.completedItems)
        let seen = background.progress.values
        #expect(seen.first?.completedItems == pending.completedItems)
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.completedItems < $1.completedItems })
        #expect(seen.last?.completedItems == report.totalItems)
        try run.terminate()

        for (path, data) in expected {
            #expect(try container.read("Library/Application Support/" + path) == data)
            #expect(try container.isExcludedFromBackup("Library/Application Support/" + path))
        }
        #expect(try container.contentsOfDirectory("Documents").isEmpty)
        #expect(try fixture.device.pendingDocumentsMigration(of: Self.bundleID) == nil)
        print("watchdog demo: launch-path migration killed after \(String(format: "%.3f", killed.duration)) s "
              + "(limit \(limit) s) at \(pending.completedItems)/\(pending.totalItems) items; background launch took "
              + "\(String(format: "%.4f", launched.duration)) s, migration finished in \(String(format: "%.3f", report.duration)) s")
    }

    /// Each file is in Documents or Application Support, not both, with its bytes.
    static func expectEachFileOnce(_ expected: [String: Data], _ container: AppContainer) throws {
        for (path, data) in expected {
            let source = container.fileExists("Documents/" + path)
            let destination = container.fileExists("Library/Application Support/" + path)
            #expect(source != destination, "\(path): \(source ? "in both places" : "nowhere")")
            let content = try container.read((source ? "Documents/" : "Library/Application Support/") + path)
            #expect(content == data, "\(path) changed")
        }
    }
}

/// Launches slowly: sleeps in small steps until the time passes or the app is killed.
final class SlowLaunchDelegate: AppDelegate {
    let seconds: TimeInterval
    init(seconds: TimeInterval) { self.seconds = seconds }

    func application(_ app: AppContext, didFinishLaunchingWithOptions options: LaunchOptions) throws -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end && !app.termination.isTerminated { Thread.sleep(forTimeInterval: 0.01) }
        return true
    }
}

/// What the app does with each photo it moves (updates its index: 0.1 ms),
/// so the whole move takes many times the test's watchdog limit whatever
/// the machine's speed.
func indexPhoto(_ progress: MigrationProgress) { LibC.sleep(microseconds: 100) }

/// The mistake: moves Documents on the launch path.
final class LaunchPathMigrationDelegate: AppDelegate {
    func application(_ app: AppContext, didFinishLaunchingWithOptions options: LaunchOptions) throws -> Bool {
        _ = try app.migrateDocuments(to: .applicationSupport, progress: indexPhoto)
        return true
    }
}

/// The fix: starts the move in the background and returns.
final class BackgroundMigrationDelegate: AppDelegate {
    let progress = ProgressLog()
    private(set) var task: MigrationTask?

    func application(_ app: AppContext, didFinishLaunchingWithOptions options: LaunchOptions) throws -> Bool {
        let log = progress
        task = app.startDocumentsMigration(to: .applicationSupport) { progress in
            indexPhoto(progress)
            log.append(progress)
        }
        return true
    }
}

/// Progress reports collected from the migration's thread.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [MigrationProgress] = []
    func append(_ value: MigrationProgress) { lock.withLock { stored.append(value) } }
    var values: [MigrationProgress] { lock.withLock { stored } }
}
