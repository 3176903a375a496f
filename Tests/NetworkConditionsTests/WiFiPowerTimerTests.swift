import Testing
@testable import NetworkConditions

/// The 30-minute Wi-Fi power timer on a controlled clock ("Files and
/// Networking": off after 30 minutes unless a running app requires
/// persistent Wi-Fi; re-armed when it quits; no Wi-Fi while locked).
@Suite struct WiFiPowerTimerTests {
    private let halfHour = WiFiPowerTimer.interval

    @Test func wifiGoesOffThirtyMinutesAfterTheTimerIsArmed() throws {
        var network = DeviceNetwork()
        try network.advance(by: halfHour - 1)
        #expect(network.currentRoute == .success(.wifi))
        try network.advance(by: 1)
        #expect(network.wifiPoweredOffByTimer(at: network.clock.now))
        #expect(network.currentRoute.unavailable?.reason == .wifiOffByTimer)
    }

    @Test func theIntervalIsThirtyMinutes() {
        #expect(WiFiPowerTimer.interval == 1800)
    }

    @Test func anAppRequiringPersistentWiFiHoldsTheTimerWhileItRuns() throws {
        var network = DeviceNetwork()
        let report = network.appLaunched("com.example.maps", requiresPersistentWiFi: true)
        #expect(report.holdsWiFiTimer)
        try network.advance(by: 3 * halfHour)
        #expect(network.currentRoute == .success(.wifi))
        #expect(network.wifiTimer.holders == ["com.example.maps"])
    }

    @Test func anAppWithoutTheKeyDoesNotHoldIt() throws {
        var network = DeviceNetwork()
        let report = network.appLaunched("com.example.notes", requiresPersistentWiFi: false)
        #expect(!report.holdsWiFiTimer)
        try network.advance(by: halfHour)
        #expect(network.currentRoute.unavailable?.reason == .wifiOffByTimer)
    }

    @Test func theTimerIsArmedAgainWhenTheAppQuits() throws {
        var network = DeviceNetwork()
        _ = network.appLaunched("com.example.maps", requiresPersistentWiFi: true)
        try network.advance(by: 2 * halfHour)
        network.appQuit("com.example.maps")
        #expect(network.wifiTimer.armedAt == 2 * halfHour)
        try network.advance(by: halfHour - 1)
        #expect(network.currentRoute == .success(.wifi), "30 minutes count from the quit")
        try network.advance(by: 1)
        #expect(network.currentRoute.unavailable?.reason == .wifiOffByTimer)
    }

    @Test func theLastHolderToQuitArmsTheTimer() throws {
        var network = DeviceNetwork()
        _ = network.appLaunched("com.example.a", requiresPersistentWiFi: true)
        _ = network.appLaunched("com.example.b", requiresPersistentWiFi: true)
        try network.advance(by: halfHour)
        network.appQuit("com.example.a")
        try network.advance(by: halfHour)
        #expect(network.currentRoute == .success(.wifi), "b still holds it")
        network.appQuit("com.example.b")
        try network.advance(by: halfHour)
        #expect(network.currentRoute.unavailable?.reason == .wifiOffByTimer)
    }

    @Test func launchingAHolderAfterTheTimerFiredBringsWiFiBack() throws {
        var network = DeviceNetwork()
        try network.advance(by: halfHour)
        #expect(network.currentRoute.unavailable?.reason == .wifiOffByTimer)
        let report = network.appLaunched("com.example.maps", requiresPersistentWiFi: true)
        #expect(report.route == .wifi)
        #expect(network.currentRoute == .success(.wifi))
    }

    @Test func lockMeansNoWiFiEvenForAHolder() throws {
        var network = DeviceNetwork()
        _ = network.appLaunched("com.example.maps", requiresPersistentWiFi: true)
        network.setLocked(true)
        #expect(network.currentRoute.unavailable?.reason == .deviceLocked)
        try network.advance(by: 2 * halfHour)
        #expect(network.currentRoute.unavailable?.reason == .deviceLocked)
        network.setLocked(false)
        #expect(network.currentRoute == .success(.wifi), "unlocked, the running app holds the timer again")
    }

    @Test func theKeyHasNoEffectWhileLocked() throws {
        var network = DeviceNetwork(locked: true)
        let report = network.appLaunched("com.example.maps", requiresPersistentWiFi: true)
        #expect(report.route == nil)
        #expect(report.unavailable?.reason == .deviceLocked)
        #expect(network.wifiTimer.hasPoweredOff(at: network.clock.now + halfHour, locked: true))
        #expect(!network.wifiTimer.hasPoweredOff(at: network.clock.now + halfHour, locked: false))
    }

    @Test func switchingWiFiOffAndOnArmsTheTimer() throws {
        var network = DeviceNetwork()
        try network.advance(by: halfHour)
        network.setWiFi(false)
        network.setWiFi(true)
        #expect(network.wifiTimer.armedAt == halfHour)
        #expect(network.currentRoute == .success(.wifi))
    }

    @Test func setWiFiOnWhenAlreadyOnDoesNotArm() throws {
        var network = DeviceNetwork()
        try network.advance(by: 100)
        network.setWiFi(true)
        #expect(network.wifiTimer.armedAt == 0)
    }

    @Test func holdersThatAreNoLongerRunningAreReleased() throws {
        var network = DeviceNetwork()
        _ = network.appLaunched("com.example.a", requiresPersistentWiFi: true)
        _ = network.appLaunched("com.example.b", requiresPersistentWiFi: true)
        try network.advance(by: 500)
        network.releaseHolders(notIn: ["com.example.b"])
        #expect(network.wifiTimer.holders == ["com.example.b"])
        network.releaseHolders(notIn: [])
        #expect(network.wifiTimer.holders.isEmpty)
        #expect(network.wifiTimer.armedAt == 500)
    }

    @Test func theClockRefusesToRunBackwards() {
        var clock = NetworkClock()
        #expect(throws: NetworkClockError(seconds: -1)) { try clock.advance(by: -1) }
        #expect(throws: NetworkClockError.self) { try clock.advance(by: .nan) }
        #expect(throws: NetworkClockError.self) { try clock.advance(by: .infinity) }
        #expect(clock.now == 0)
    }
}
