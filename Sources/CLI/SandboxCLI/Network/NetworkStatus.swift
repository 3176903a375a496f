import NetworkConditions

/// `sandbox network status|set`'s output: the conditions, the Wi-Fi timer
/// and the route now (or why there is none).
struct NetworkStatus: Encodable {
    struct WiFi: Encodable {
        /// The Wi-Fi switch.
        var enabled: Bool
        /// Whether the radio is on (the switch, or turned back on in airplane mode).
        var radioOn: Bool
        var reenabledInAirplaneMode: Bool
        var poweredOffByTimer: Bool
        var timer: Timer
    }

    struct Timer: Encodable {
        var armedAt: Double
        var deadline: Double
        /// The running apps that require persistent Wi-Fi and hold the timer.
        var holders: [String]
    }

    struct Cellular: Encodable {
        var enabled: Bool
        var radioOn: Bool
    }

    /// The network clock, in seconds.
    var clock: Double
    var wifi: WiFi
    var cellular: Cellular
    var airplaneMode: Bool
    var locked: Bool
    /// Connected to power (iCloud backup runs locked, on power, on Wi-Fi).
    var onPower: Bool
    /// Whether downloads may reach private and link-local addresses.
    var localNetworkAllowed: Bool
    /// `wifi` or `cellular`; absent when there is no route.
    var route: NetworkRoute?
    /// Why there is no route; absent when there is one.
    var unavailable: NetworkUnavailable?

    init(_ network: DeviceNetwork) {
        let now = network.clock.now
        clock = now
        wifi = WiFi(enabled: network.wifiEnabled, radioOn: network.wifiRadioOn,
                    reenabledInAirplaneMode: network.wifiReenabledInAirplaneMode,
                    poweredOffByTimer: network.wifiPoweredOffByTimer(at: now),
                    timer: Timer(armedAt: network.wifiTimer.armedAt, deadline: network.wifiTimer.deadline,
                                 holders: network.wifiTimer.holders))
        cellular = Cellular(enabled: network.cellularEnabled, radioOn: network.cellularRadioOn)
        airplaneMode = network.airplaneMode
        locked = network.locked
        onPower = network.onPower
        localNetworkAllowed = network.localNetworkAllowed
        switch network.route(at: now) {
        case .success(let route): self.route = route
        case .failure(let outage): unavailable = outage
        }
    }

    /// The lines for people.
    var text: String {
        var lines = ["Clock: \(NetworkClock.text(clock))"]
        lines.append("Wi-Fi: \(wifiText)")
        lines.append("Cellular data: \(cellular.enabled ? (cellular.radioOn ? "on" : "on (off in airplane mode)") : "off")")
        lines.append("Airplane mode: \(airplaneMode ? "on" : "off")")
        lines.append("Locked: \(locked ? "yes" : "no")")
        lines.append("Power: \(onPower ? "connected" : "not connected")")
        lines.append("Local network: \(localNetworkAllowed ? "allowed" : "refused")")
        if let route {
            lines.append("Route: \(route == .wifi ? "Wi-Fi" : "cellular")")
        } else if let unavailable {
            lines.append("Route: none (\(unavailable.reason.rawValue)): \(unavailable.message)")
        }
        return lines.joined(separator: "\n")
    }

    private var wifiText: String {
        if airplaneMode && !wifi.reenabledInAirplaneMode { return "off (airplane mode)" }
        guard wifi.radioOn else { return "off" }
        let inAirplane = airplaneMode ? ", turned back on in airplane mode" : ""
        if locked { return "on\(inAirplane), no connection while locked" }
        if wifi.poweredOffByTimer {
            return "on\(inAirplane), hardware off by the power timer at \(NetworkClock.text(wifi.timer.deadline))"
        }
        if !wifi.timer.holders.isEmpty {
            return "on\(inAirplane), power timer held by \(wifi.timer.holders.joined(separator: ", "))"
        }
        return "on\(inAirplane), power timer fires at \(NetworkClock.text(wifi.timer.deadline))"
    }

}
