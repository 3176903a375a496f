@testable import Device
import Foundation
import Preferences
import PropertyList
import TestSupport
import Testing

@Suite struct AppRunTests {
    @Test func theFullLifecycleCallsTheDelegateInOrder() throws {
        let fixture = try DeviceFixture()
        _ = try fixture.install()
        let delegate = RecordingDelegate()
        let run = try fixture.device.run("com.example.notes", delegate: delegate)
        #expect(run.state == .notRunning)
        try run.launch()
        #expect(run.state == .inactive)
        try run.activate()
        #expect(run.state == .active)
        try run.resignActive()
        try run.enterBackground()
        #expect(run.state == .background)
        try run.suspend()
        #expect(run.state == .suspended)
        try run.enterForeground()
        try run.activate()
        try run.resignActive()
        try run.terminate()
        #expect(run.state == .notRunning)
        #expect(delegate.calls == ["didFinishLaunching", "didBecomeActive", "willResignActive", "didEnterBackground",
                                   "willEnterForeground", "didBecomeActive", "willResignActive", "willTerminate"])
    }

    @Test(arguments: ["activate", "resignActive", "enterBackground", "enterForeground", "suspend", "terminate"])
    func transitionsFromNotRunningThrow(_ action: String) throws {
        let fixture = try DeviceFixture()
        _ = try fixture.install()
        let run = try fixture.device.run("com.example.notes", delegate: EmptyDelegate())
        let error = try #require(throws: DeviceError.self) { try Self.perform(action, on: run) }
        #expect(error.code == .invalidTransition)
    }

    @Test func invalidTransitionsFromRunningStatesThrowAndKeepTheState() throws {
        let fixture = try DeviceFixture()
        _ = try fixture.install()
        let run = try fixture.device.run("com.example.notes", delegate: EmptyDelegate())
        try run.launch()
        for action in ["resignActive", "enterForeground", "suspend", "launch"] {
            let error = try #require(throws: DeviceError.self) { try Self.perform(action, on: run) }
            #expect(error.code == .invalidTransition, "\(action) from inactive")
            #expect(run.state == .inactive)
        }
        try run.activate()
        for action in ["activate", "enterBackground", "enterForeground", "suspend"] {
            #expect(throws: DeviceError.self, "\(action) from active") { try Self.perform(action, on: run) }
        }
        try run.resignActive()
        try run.enterBackground()
        for action in ["activate", "resignActive", "enterBackground"] {
            #expect(throws: DeviceError.self, "\(action) from background") { try Self.perform(action, on: run) }
        }
        try run.terminate()
    }

    @Test func aSuspendedAppIsTerminatedWithoutCallbacks() throws {
        let fixture = try DeviceFixture()
        _ = try fixture.install()
        let delegate = RecordingDelegate()
        let run = try fixture.device.run("com.example.notes", delegate: delegate)
        try run.launch()
        try run.enterBackground()
        try run.suspend()
        try run.terminate()
        #expect(delegate.calls == ["didFinishLaunching", "didEnterBackground"])
        #expect(try !fixture.device.isRunning("com.example.notes"))
    }

    @Test func preferencesAreOnDiskAfterEnteringTheBackground() throws {
        let fixture = try DeviceFixture()
        let app = try fixture.install()
        let run = try fixture.device.run(app.bundleID, delegate: EmptyDelegate())
        try run.launch()
        let context = try #require(run.context)
        context.preferences.set("v1", forKey: "Saved")
        try run.enterBackground()
        // A separate, unshared reader sees it: it was written, not just held.
        let reader = try Preferences(domainFile: app.dataContainerURL.appendingPathComponent("Library/Preferences/\(app.bundleID).plist"),
                                     configuration: .init(sharesDomainsInProcess: false))
        #expect(reader.string(forKey: "Saved") == "v1")
        #expect(!context.preferences.hasUnflushedChanges)
        try run.terminate()
    }

    @Test func theRunRecordMakesTheAppRunningUntilTerminated() throws {
        let fixture = try DeviceFixture()
        _ = try fixture.install()
        let run = try fixture.device.run("com.example.notes", delegate: EmptyDelegate())
        #expect(try !fixture.device.isRunning("com.example.notes"))
        try run.launch()
        #expect(try fixture.device.isRunning("com.example.notes"))
        #expect(try fixture.device.runRecord("com.example.notes")?.pid == ProcessInfo.processInfo.processIdentifier)
        try run.activate()
        #expect(try fixture.device.runRecord("com.example.notes")?.state == .active)
        // A second run of the same app is refused while the first lives.
        let second = try fixture.device.run("com.example.notes", delegate: EmptyDelegate())
        #expect(throws: DeviceError.self) { try second.launch() }
        // So are update and uninstall.
        let update = try #require(throws: DeviceError.self) {
            try fixture.device.update(bundleAt: try fixture.bundle(version: "2"))
        }
        #expect(update.code == .appRunning)
        try run.resignActive()
        try run.terminate()
        #expect(try !fixture.device.isRunning("com.example.notes"))
        #expect(try fixture.device.runRecord("com.example.notes") == nil)
    }

    /// A run record that exists but cannot be read is not "not running":
    /// purge, update and boot's cleanup must not act on an app that may be
    /// running, so each says which record it could not read.
    @Test func anUnreadableRunRecordStopsPurgeWithItsPath() throws {
        let fixture = try DeviceFixture()
        _ = try fixture.install()
        try fixture.device.writeRunRecord(RunRecord(bundleID: "com.example.notes", pid: ProcessInfo.processInfo.processIdentifier,
                                                    state: .active, kind: "in-process"))
        let record = fixture.device.layout.runRecord("com.example.notes")
        try Data("not a property list".utf8).write(to: record)
        let reading = try #require(throws: DeviceError.self) { try fixture.device.isRunning("com.example.notes") }
        #expect(reading.code == .corrupt)
        #expect(reading.path == record.path)
        let purge = try #require(throws: DeviceError.self) { try fixture.device.purge() }
        #expect(purge.path == record.path)
        #expect(throws: DeviceError.self) { try fixture.device.update(bundleAt: try fixture.bundle(version: "2")) }
        // Boot leaves the record it cannot read, and its cleaning of tmp
        // stops with the same path rather than empty a running app's tmp.
        let boot = try #require(throws: DeviceError.self) { try fixture.device.boot() }
        #expect(boot.path == record.path)
        #expect(FileManager.default.fileExists(atPath: record.path))
    }

    @Test func aRecordOfADeadProcessDoesNotCountAsRunning() throws {
        let fixture = try DeviceFixture()
        _ = try fixture.install()
        let process = try ChildProcess.start(URL(fileURLWithPath: "/bin/true"), [])
        process.waitForExit()
        try fixture.device.writeRunRecord(RunRecord(bundleID: "com.example.notes", pid: process.processIdentifier,
                                                    state: .active, kind: "process"))
        #expect(try !fixture.device.isRunning("com.example.notes"))
        #expect(try fixture.device.runningApps().isEmpty)
    }

    static func perform(_ action: String, on run: AppRun) throws {
        switch action {
        case "launch": try run.launch()
        case "activate": try run.activate()
        case "resignActive": try run.resignActive()
        case "enterBackground": try run.enterBackground()
        case "enterForeground": try run.enterForeground()
        case "suspend": try run.suspend()
        default: try run.terminate()
        }
    }
}
