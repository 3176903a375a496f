@testable import Device
import Foundation
import Launch
import Testing

/// The launch watchdog for apps started as processes: an app that does not
/// say it finished launching within the limit is killed with SIGKILL and
/// the kill is reported; one that does is left running.
@Suite struct DeviceLaunchWatchdogTests {
    private func install(_ fixture: DeviceFixture, script: String) throws -> InstalledApp {
        let bundle = try fixture.bundle()
        try Data("#!/bin/sh\n\(script)\n".utf8).write(to: bundle.appendingPathComponent("Notes"))
        return try fixture.device.install(bundleAt: bundle)
    }

    private func options(_ watchdog: ProcessWatchdog) -> ProcessLaunchOptions {
        var options = ProcessLaunchOptions()
        options.standardOutput = .nullDevice
        options.printsWarnings = false
        options.watchdog = watchdog
        return options
    }

    @Test func aProcessThatNeverFinishesLaunchingIsKilledAndReported() throws {
        let fixture = try DeviceFixture("process-watchdog")
        // Migrates on the launch path: far longer than the limit.
        let app = try install(fixture, script: "sleep 30\ntouch \"$SANDBOX_LAUNCH_FINISHED\"\nexec sleep 30")
        let started = Date()
        let error = #expect(throws: DeviceError.self) {
            _ = try fixture.device.launch(app.bundleID, options: self.options(.seconds(0.5)))
        }
        #expect(error?.code == .watchdogTimeout)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(try !fixture.device.isRunning(app.bundleID))
        #expect(try fixture.device.runRecord(app.bundleID) == nil)
        let report = try #require(fixture.device.lastLaunchReport(app.bundleID))
        #expect(report.outcome == .killed && report.reason == .watchdogTimeout)
        #expect(report.terminationCodeText == "0x8badf00d")
        #expect(report.duration >= 0.5)
    }

    @Test func aProcessThatFinishesLaunchingInTimeKeepsRunning() throws {
        let fixture = try DeviceFixture("process-watchdog-fast")
        try fixture.device.setLaunchWatchdogLimit(10)
        let app = try install(fixture, script: "touch \"$SANDBOX_LAUNCH_FINISHED\"\nexec sleep 30")
        let process = try fixture.device.launch(app.bundleID, options: options(.device))
        #expect(try fixture.device.isRunning(app.bundleID))
        let report = try #require(fixture.device.lastLaunchReport(app.bundleID))
        #expect(report.outcome == .finished && report.limit == 10 && report.duration < 10)
        #expect(try fixture.device.terminate(app.bundleID, timeout: 5) != .notRunning)
        _ = try? process.process.wait()
    }
}
