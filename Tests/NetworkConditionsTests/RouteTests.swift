import Testing
@testable import NetworkConditions
import PropertyList

/// Which interface a transfer takes, and why there is none.
@Suite struct RouteTests {
    @Test func wifiIsPreferredOverCellular() {
        let network = DeviceNetwork(wifiEnabled: true, cellularEnabled: true)
        #expect(network.currentRoute == .success(.wifi))
    }

    @Test func cellularCarriesWhenWiFiIsDown() throws {
        var network = DeviceNetwork(wifiEnabled: false, cellularEnabled: true)
        #expect(network.currentRoute == .success(.cellular))
        network.setWiFi(true)
        try network.advance(by: WiFiPowerTimer.interval)
        #expect(network.currentRoute == .success(.cellular), "the timer fired: cellular")
        network.setLocked(true)
        #expect(network.currentRoute == .success(.cellular), "locked: no Wi-Fi, cellular still carries")
    }

    @Test func bothSwitchesOffIsNoRoute() {
        let network = DeviceNetwork(wifiEnabled: false, cellularEnabled: false)
        #expect(network.currentRoute.unavailable?.reason == .noRoute)
    }

    @Test func eachReasonHasAMessageThatSaysWhy() {
        for reason in NetworkUnavailable.Reason.allCases {
            let message = NetworkUnavailable(reason).message
            #expect(message.hasPrefix("the network is unavailable: "))
        }
        #expect(NetworkUnavailable(.airplaneMode).message.contains("airplane mode"))
        #expect(NetworkUnavailable(.wifiOffByTimer).message.contains("30 minutes"))
        #expect(NetworkUnavailable(.deviceLocked).message.contains("locked"))
        #expect(NetworkUnavailable(.noRoute).message.contains("turned off"))
    }

    @Test func theTimerMessageSaysWhenItFired() throws {
        var network = DeviceNetwork()
        try network.advance(by: 2000)
        guard case .failure(let unavailable) = network.currentRoute else {
            Issue.record("expected no route")
            return
        }
        #expect(unavailable.reason == .wifiOffByTimer)
        #expect(unavailable.message.contains("armed at 0 s and fired at 1800 s"))
        #expect("\(unavailable)" == unavailable.message)
    }

    /// Every combination of the switches, the lock and the timer: the
    /// route, or the first reason that applies.
    @Test(arguments: 0..<64)
    func everyCombinationHasTheDocumentedOutcome(bits: Int) throws {
        let wifi = bits & 1 != 0, cellular = bits & 2 != 0, airplane = bits & 4 != 0
        let backOn = bits & 8 != 0, locked = bits & 16 != 0, timerFired = bits & 32 != 0
        var network = DeviceNetwork(wifiEnabled: wifi, cellularEnabled: cellular, locked: locked)
        network.setAirplaneMode(airplane)
        if airplane && backOn { network.setWiFi(true) }
        if timerFired { try network.advance(by: WiFiPowerTimer.interval) }

        let radio = airplane ? backOn : wifi
        let expected: Result<NetworkRoute, NetworkUnavailable>
        if radio && !locked && !timerFired {
            expected = .success(.wifi)
        } else if cellular && !airplane {
            expected = .success(.cellular)
        } else if airplane && !backOn {
            expected = .failure(NetworkUnavailable(.airplaneMode))
        } else if radio && locked {
            expected = .failure(NetworkUnavailable(.deviceLocked))
        } else if radio && timerFired {
            expected = .failure(NetworkUnavailable(.wifiOffByTimer))
        } else {
            expected = .failure(NetworkUnavailable(.noRoute))
        }
        switch (network.currentRoute, expected) {
        case (.success(let got), .success(let want)): #expect(got == want)
        case (.failure(let got), .failure(let want)): #expect(got.reason == want.reason)
        default: Issue.record("got \(network.currentRoute), expected \(expected)")
        }
    }

    @Test func routeAtTakesTheTimeGiven() throws {
        let network = DeviceNetwork()
        #expect(network.route(at: 1799) == .success(.wifi))
        #expect(network.route(at: 1800).unavailable?.reason == .wifiOffByTimer)
        #expect(try network.requireRoute(at: 1799) == .wifi)
        #expect(throws: NetworkUnavailable.self) { try network.requireRoute(at: 1800) }
    }

    @Test func theConditionsRoundTripThroughCodable() throws {
        var network = DeviceNetwork(cellularEnabled: true)
        _ = network.appLaunched("com.example.maps", requiresPersistentWiFi: true)
        network.setAirplaneMode(true)
        network.setWiFi(true)
        try network.advance(by: 12.5)
        let data = try PropertyListValueEncoder().encode(network, as: .xml)
        #expect(try PropertyListValueDecoder().decode(DeviceNetwork.self, from: data) == network)
    }
}
