import Testing
@testable import NetworkConditions

/// Airplane mode, Wi-Fi turned back on inside it, and the alert decided at
/// launch: shown only when the app requires persistent Wi-Fi, launches in
/// airplane mode, and Wi-Fi has not been turned back on since.
@Suite struct AirplaneModeTests {
    @Test(arguments: [false, true], [false, true])
    func theAlertNeedsAllThreeConditions(requiresWiFi: Bool, wifiBackOn: Bool) {
        // In airplane mode: shown only for a persistent-Wi-Fi app with Wi-Fi not back on.
        var inAirplane = DeviceNetwork()
        inAirplane.setAirplaneMode(true)
        if wifiBackOn { inAirplane.setWiFi(true) }
        let report = inAirplane.appLaunched("com.example.app", requiresPersistentWiFi: requiresWiFi)
        #expect(report.airplaneModeAlert == (requiresWiFi && !wifiBackOn))
        #expect(inAirplane.showsAirplaneModeAlert(requiresPersistentWiFi: requiresWiFi) == (requiresWiFi && !wifiBackOn))

        // Outside airplane mode: never shown, whatever the key or the Wi-Fi switch.
        var outside = DeviceNetwork(wifiEnabled: wifiBackOn)
        #expect(!outside.appLaunched("com.example.app", requiresPersistentWiFi: requiresWiFi).airplaneModeAlert)
    }

    @Test func airplaneModeTurnsTheRadiosOff() {
        var network = DeviceNetwork(wifiEnabled: true, cellularEnabled: true)
        network.setAirplaneMode(true)
        #expect(!network.wifiRadioOn)
        #expect(!network.cellularRadioOn)
        #expect(network.currentRoute.unavailable?.reason == .airplaneMode)
        #expect(network.wifiEnabled && network.cellularEnabled, "the switches are remembered")
    }

    @Test func wifiMayBeTurnedBackOnInsideAirplaneMode() {
        var network = DeviceNetwork(cellularEnabled: true)
        network.setAirplaneMode(true)
        network.setWiFi(true)
        #expect(network.wifiReenabledInAirplaneMode)
        #expect(network.currentRoute == .success(.wifi))
        #expect(!network.cellularRadioOn, "cellular stays off in airplane mode")
    }

    @Test func turningWiFiBackOnArmsTheTimer() throws {
        var network = DeviceNetwork()
        network.setAirplaneMode(true)
        try network.advance(by: 4000)
        network.setWiFi(true)
        #expect(network.wifiTimer.armedAt == 4000)
    }

    @Test func switchingAirplaneModeOnAgainForgetsTheReenabling() {
        var network = DeviceNetwork()
        network.setAirplaneMode(true)
        network.setWiFi(true)
        network.setAirplaneMode(false)
        #expect(!network.wifiReenabledInAirplaneMode)
        network.setAirplaneMode(true)
        #expect(!network.wifiReenabledInAirplaneMode)
        #expect(network.showsAirplaneModeAlert(requiresPersistentWiFi: true))
    }

    @Test func turningWiFiOffInsideAirplaneModeClearsTheReenabling() {
        var network = DeviceNetwork()
        network.setAirplaneMode(true)
        network.setWiFi(true)
        network.setWiFi(false)
        #expect(!network.wifiReenabledInAirplaneMode)
        #expect(network.showsAirplaneModeAlert(requiresPersistentWiFi: true))
    }

    @Test func leavingAirplaneModeRestoresTheSwitchesAndArmsTheTimer() throws {
        var network = DeviceNetwork(wifiEnabled: true, cellularEnabled: true)
        network.setAirplaneMode(true)
        try network.advance(by: 2 * WiFiPowerTimer.interval)
        network.setAirplaneMode(false)
        #expect(network.wifiTimer.armedAt == 2 * WiFiPowerTimer.interval)
        #expect(network.currentRoute == .success(.wifi))
        #expect(network.cellularRadioOn)
    }

    @Test func theAlertIsDecidedAtLaunchOnly() {
        var network = DeviceNetwork()
        network.setAirplaneMode(true)
        let report = network.appLaunched("com.example.maps", requiresPersistentWiFi: true)
        #expect(report.airplaneModeAlert)
        network.setWiFi(true)
        #expect(report.airplaneModeAlert, "the report keeps what launch decided")
        #expect(!network.showsAirplaneModeAlert(requiresPersistentWiFi: true))
    }
}
