@testable import Device
import Foundation
import Launch
import NetworkConditions
import PropertyList
import Testing

/// The radio conditions kept in the device's state, and launches honouring
/// them: the airplane-mode alert and the Wi-Fi power timer held by an app
/// whose `Info.plist` sets `UIRequiresPersistentWiFi` to true.
@Suite struct DeviceNetworkTests {
    private let halfHour = WiFiPowerTimer.interval

    /// Installs `identifier` with `UIRequiresPersistentWiFi` set to `persistentWiFi` (absent when nil).
    private func install(_ fixture: DeviceFixture, _ identifier: String, persistentWiFi: PropertyListValue?,
                         script: String? = nil) throws -> InstalledApp {
        let folder = fixture.bundles.appendingPathComponent("\(identifier)-\(UUID().uuidString)", isDirectory: true)
        let bundle = try TestBundle.make(in: folder, identifier: identifier,
                                         info: persistentWiFi.map { [PersistentWiFiKey.name: $0] } ?? [:])
        if let script { try Data("#!/bin/sh\n\(script)\n".utf8).write(to: bundle.appendingPathComponent("Notes")) }
        return try fixture.device.install(bundleAt: bundle)
    }

    private var quiet: ProcessLaunchOptions {
        var options = ProcessLaunchOptions()
        options.standardOutput = .nullDevice
        options.printsWarnings = false
        return options
    }

    @Test func aNewDeviceHasWiFiOnAndTheClockAtZero() throws {
        let fixture = try DeviceFixture("network")
        let network = try fixture.device.network
        #expect(network == DeviceNetwork())
        #expect(network.currentRoute == .success(.wifi))
    }

    @Test func theConditionsSurviveReopeningTheDevice() throws {
        let fixture = try DeviceFixture("network")
        let written = try fixture.device.updateNetwork { network in
            network.setCellular(true)
            network.setAirplaneMode(true)
            network.setWiFi(true)
            try network.advance(by: 1234.5)
            return network
        }
        let reopened = try Device.open(at: fixture.device.root)
        #expect(try reopened.network == written)
        #expect(try reopened.network.clock.now == 1234.5)
        #expect(try reopened.network.wifiReenabledInAirplaneMode)
        #expect(FileManager.default.fileExists(atPath: fixture.device.root.appendingPathComponent("network.plist").path))
    }

    @Test func eraseResetsTheConditions() throws {
        let fixture = try DeviceFixture("network")
        try fixture.device.updateNetwork { network in
            network.setAirplaneMode(true)
            try network.advance(by: 60)
        }
        try fixture.device.erase()
        #expect(try fixture.device.network == DeviceNetwork())
    }

    @Test func theClockAdvancesAndTheTimerFires() throws {
        let fixture = try DeviceFixture("network")
        try fixture.device.advanceNetworkClock(by: halfHour - 1)
        #expect(try fixture.device.network.currentRoute == .success(.wifi))
        let network = try fixture.device.advanceNetworkClock(by: 1)
        #expect(network.currentRoute.unavailable?.reason == .wifiOffByTimer)
        #expect(throws: NetworkClockError.self) { try fixture.device.advanceNetworkClock(by: -5) }
        #expect(try fixture.device.network.clock.now == halfHour)
    }

    @Test func theLockIsTheDevicesLock() throws {
        let fixture = try DeviceFixture("network")
        try fixture.device.updateNetwork { $0.setLocked(true) }
        #expect(try fixture.device.isLocked)
        #expect(try fixture.device.network.currentRoute.unavailable?.reason == .deviceLocked)
        try fixture.device.unlock()
        #expect(try !fixture.device.network.locked)
        try fixture.device.lock()
        #expect(try fixture.device.network.locked)
        try fixture.device.unlock()
    }

    @Test func anInProcessAppRequiringPersistentWiFiHoldsTheTimerUntilItQuits() throws {
        let fixture = try DeviceFixture("network")
        let app = try install(fixture, "com.example.maps", persistentWiFi: .bool(true))
        let run = try fixture.device.run(app.bundleID, delegate: RecordingDelegate())
        try run.launch()
        #expect(run.network?.holdsWiFiTimer == true)
        #expect(run.network?.airplaneModeAlert == false)
        #expect(try fixture.device.network.wifiTimer.holders == [app.bundleID])
        try fixture.device.advanceNetworkClock(by: 2 * halfHour)
        #expect(try fixture.device.network.currentRoute == .success(.wifi), "held for an hour")

        try run.terminate()
        let afterQuit = try fixture.device.network
        #expect(afterQuit.wifiTimer.holders.isEmpty)
        #expect(afterQuit.wifiTimer.armedAt == 2 * halfHour, "re-armed when the app quit")
        try fixture.device.advanceNetworkClock(by: halfHour - 1)
        #expect(try fixture.device.network.currentRoute == .success(.wifi))
        try fixture.device.advanceNetworkClock(by: 1)
        #expect(try fixture.device.network.currentRoute.unavailable?.reason == .wifiOffByTimer)
    }

    @Test(arguments: [PropertyListValue.string("YES"), .bool(false), .integer(1)])
    func onlyABooleanTrueHoldsTheTimer(value: PropertyListValue) throws {
        let fixture = try DeviceFixture("network")
        let app = try install(fixture, "com.example.maps", persistentWiFi: value)
        let run = try fixture.device.run(app.bundleID, delegate: RecordingDelegate())
        try run.launch()
        #expect(run.network?.holdsWiFiTimer == false)
        try fixture.device.advanceNetworkClock(by: halfHour)
        #expect(try fixture.device.network.currentRoute.unavailable?.reason == .wifiOffByTimer)
        try run.terminate()
    }

    @Test func lockMeansNoWiFiEvenWhileAHolderRuns() throws {
        let fixture = try DeviceFixture("network")
        let app = try install(fixture, "com.example.maps", persistentWiFi: .bool(true))
        let run = try fixture.device.run(app.bundleID, delegate: RecordingDelegate())
        try run.launch()
        try fixture.device.lock()
        #expect(try fixture.device.network.currentRoute.unavailable?.reason == .deviceLocked)
        try fixture.device.unlock()
        #expect(try fixture.device.network.currentRoute == .success(.wifi))
        try run.terminate()
    }

    @Test(arguments: [false, true], [false, true])
    func theAirplaneModeAlertIsDecidedAtLaunch(requiresWiFi: Bool, wifiBackOn: Bool) throws {
        let fixture = try DeviceFixture("network")
        let app = try install(fixture, "com.example.maps", persistentWiFi: requiresWiFi ? .bool(true) : nil)
        try fixture.device.updateNetwork { network in
            network.setAirplaneMode(true)
            if wifiBackOn { network.setWiFi(true) }
        }
        let run = try fixture.device.run(app.bundleID, delegate: RecordingDelegate())
        try run.launch()
        #expect(run.network?.airplaneModeAlert == (requiresWiFi && !wifiBackOn))
        #expect(run.network?.route == (wifiBackOn ? .wifi : nil))
        try run.terminate()

        try fixture.device.updateNetwork { $0.setAirplaneMode(false) }
        try run.launch()
        #expect(run.network?.airplaneModeAlert == false, "not in airplane mode: no alert")
        try run.terminate()
    }

    @Test func aLaunchedProcessHoldsTheTimerAndAnEndedOneReleasesIt() throws {
        let fixture = try DeviceFixture("network")
        let app = try install(fixture, "com.example.maps", persistentWiFi: .bool(true),
                              script: "trap 'exit 0' TERM\nwhile :; do sleep 0.05; done")
        try fixture.device.updateNetwork { $0.setAirplaneMode(true) }
        let process = try fixture.device.launch(app.bundleID, options: quiet)
        #expect(process.network.airplaneModeAlert)
        #expect(process.network.holdsWiFiTimer)
        try fixture.device.updateNetwork { $0.setAirplaneMode(false) }
        try fixture.device.advanceNetworkClock(by: 2 * halfHour)
        #expect(try fixture.device.network.currentRoute == .success(.wifi))
        #expect(try fixture.device.terminate(app.bundleID, timeout: 10) != .notRunning)
        _ = try? process.process.wait()
        let network = try fixture.device.network
        #expect(network.wifiTimer.holders.isEmpty)
        #expect(network.wifiTimer.armedAt == 2 * halfHour)
    }

    @Test func aWaitedProcessReportsTheAlertAndLeavesNoHold() throws {
        let fixture = try DeviceFixture("network")
        let app = try install(fixture, "com.example.maps", persistentWiFi: .bool(true), script: "exit 0")
        try fixture.device.updateNetwork { $0.setAirplaneMode(true) }
        let process = try fixture.device.launch(app.bundleID, wait: true, options: quiet)
        #expect(process.network.airplaneModeAlert)
        #expect(try fixture.device.network.wifiTimer.holders.isEmpty)
    }

    @Test func aDamagedRecordIsACorruptDeviceError() throws {
        let fixture = try DeviceFixture("network")
        let file = fixture.device.root.appendingPathComponent("network.plist")
        try Data("<plist><dict><key>clock</key></dict></plist>".utf8).write(to: file)
        let error = try #require(throws: DeviceError.self) { try fixture.device.network }
        #expect(error.code == .corrupt)
        #expect(error.path == file.path)
    }
}
