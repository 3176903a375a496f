

/// A device's radio conditions: the switches the user sets (Wi-Fi, cellular
/// data, airplane mode), the screen lock, and the Wi-Fi power timer, on a
/// clock that tests control.
///
/// The switches change through methods, not setters, because each keeps the
/// others consistent: switching airplane mode on forgets that Wi-Fi was
/// turned back on inside it, and powering Wi-Fi up arms the power timer.
///
/// ```swift
/// var network = DeviceNetwork()
/// try network.advance(by: 31 * 60)
/// network.route(at: network.clock.now)   // .failure(wifiOffByTimer), cellular is off
/// network.setAirplaneMode(true)
/// network.setWiFi(true)                  // Wi-Fi back on inside airplane mode
/// ```
///
/// The rules, with their source, are in <doc:WiFiAndAirplaneMode>.
public struct DeviceNetwork: Codable, Sendable, Equatable, Hashable {
    /// The Wi-Fi switch. Outside airplane mode the Wi-Fi radio follows it;
    /// in airplane mode the radio is on only if Wi-Fi was turned back on
    /// (``wifiReenabledInAirplaneMode``).
    public internal(set) var wifiEnabled: Bool
    /// The cellular-data switch (off in airplane mode whatever it says).
    public internal(set) var cellularEnabled: Bool
    /// Airplane mode: every radio off, until Wi-Fi is turned back on inside it.
    public internal(set) var airplaneMode: Bool
    /// Whether Wi-Fi was turned back on since airplane mode was switched on
    /// (and is still on). False outside airplane mode.
    public internal(set) var wifiReenabledInAirplaneMode: Bool
    /// Whether the screen is locked: a locked device has no Wi-Fi connection.
    public internal(set) var locked: Bool
    /// Whether the device is connected to power (iCloud backup runs only
    /// then; see ``cloudBackupBlocker``).
    public internal(set) var onPower: Bool = false
    /// Whether downloads may reach private, link-local and other
    /// special-purpose addresses (iOS asks the user before an app reaches
    /// the local network; here it is one setting for the device). Off by
    /// default: a URL a cache manifest names cannot probe the network the
    /// device is on.
    public internal(set) var localNetworkAllowed: Bool = false
    /// The 30-minute Wi-Fi power timer.
    public internal(set) var wifiTimer: WiFiPowerTimer
    /// The time the conditions run on.
    public internal(set) var clock: NetworkClock

    /// Conditions at `clock`: by default a new device's, Wi-Fi switched on
    /// (the timer armed now), no cellular data (a device without a SIM, as
    /// the simulator is), airplane mode off, unlocked.
    public init(wifiEnabled: Bool = true, cellularEnabled: Bool = false, airplaneMode: Bool = false,
                locked: Bool = false, clock: NetworkClock = NetworkClock()) {
        self.wifiEnabled = wifiEnabled
        self.cellularEnabled = cellularEnabled
        self.airplaneMode = airplaneMode
        self.wifiReenabledInAirplaneMode = false
        self.locked = locked
        self.clock = clock
        self.wifiTimer = WiFiPowerTimer(armedAt: clock.now)
    }

    // MARK: What is up

    /// Whether the Wi-Fi radio is switched on: the switch outside airplane
    /// mode, Wi-Fi turned back on inside it. The power timer and the lock
    /// can still keep it from carrying traffic (``route(at:)``).
    public var wifiRadioOn: Bool {
        airplaneMode ? wifiReenabledInAirplaneMode : wifiEnabled
    }

    /// Whether the cellular radio carries data: switched on, outside airplane mode.
    public var cellularRadioOn: Bool {
        cellularEnabled && !airplaneMode
    }

    /// Whether the power timer has turned the Wi-Fi hardware off at `now`
    /// (only meaningful while the radio is switched on).
    public func wifiPoweredOffByTimer(at now: Double) -> Bool {
        wifiRadioOn && wifiTimer.hasPoweredOff(at: now, locked: locked)
    }

    // MARK: The switches

    /// Turns Wi-Fi on or off. In airplane mode, turning it on is turning it
    /// back on inside airplane mode (so the airplane-mode alert is no longer
    /// shown); turning it off there clears that again. Powering the radio up
    /// arms the power timer.
    public mutating func setWiFi(_ on: Bool) {
        let wasOn = wifiRadioOn
        wifiEnabled = on
        if airplaneMode { wifiReenabledInAirplaneMode = on }
        if wifiRadioOn && !wasOn { wifiTimer.arm(at: clock.now) }
    }

    /// Turns cellular data on or off.
    public mutating func setCellular(_ on: Bool) {
        cellularEnabled = on
    }

    /// Switches airplane mode. Switching it on turns every radio off and
    /// forgets any earlier re-enabling of Wi-Fi; switching it off brings the
    /// radios back as their switches say (arming the timer if Wi-Fi powers up).
    public mutating func setAirplaneMode(_ on: Bool) {
        guard on != airplaneMode else { return }
        let wasOn = wifiRadioOn
        airplaneMode = on
        wifiReenabledInAirplaneMode = false
        if wifiRadioOn && !wasOn { wifiTimer.arm(at: clock.now) }
    }

    /// Locks or unlocks the screen. The timer is left as it is: while locked
    /// there is no Wi-Fi whatever holds it, and once unlocked the running
    /// apps that require persistent Wi-Fi hold it again.
    public mutating func setLocked(_ on: Bool) {
        locked = on
    }

    /// Connects the device to power or disconnects it.
    public mutating func setPower(_ on: Bool) {
        onPower = on
    }

    /// Allows or refuses downloads to the local network (``localNetworkAllowed``).
    public mutating func setLocalNetworkAllowed(_ on: Bool) {
        localNetworkAllowed = on
    }

    /// Why iCloud backup would not start now, or nil when it would: iOS
    /// backs up when the device is locked, connected to power and on Wi-Fi
    /// (a device on power keeps its Wi-Fi connection while locked, so the
    /// lock and the power timer do not take Wi-Fi away here).
    public var cloudBackupBlocker: String? {
        if !wifiRadioOn { return airplaneMode ? "airplane mode is on and Wi-Fi is off" : "Wi-Fi is off" }
        if !locked { return "the device is not locked" }
        if !onPower { return "the device is not connected to power" }
        return nil
    }

    /// Moves the clock forward by `seconds` (see ``NetworkClock/advance(by:)``).
    public mutating func advance(by seconds: Double) throws(NetworkClockError) {
        try clock.advance(by: seconds)
    }
}

extension DeviceNetwork {
    enum CodingKeys: String, CodingKey {
        case wifiEnabled, cellularEnabled, airplaneMode, wifiReenabledInAirplaneMode, locked, onPower, localNetworkAllowed, wifiTimer, clock
    }

    /// Decodes stored conditions. A record that says Wi-Fi was turned back
    /// on in airplane mode while airplane mode is off (hand-edited, say) is
    /// read as not re-enabled, which is what switching airplane mode off does.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        wifiEnabled = try container.decode(Bool.self, forKey: .wifiEnabled)
        cellularEnabled = try container.decode(Bool.self, forKey: .cellularEnabled)
        airplaneMode = try container.decode(Bool.self, forKey: .airplaneMode)
        let reenabled = try container.decode(Bool.self, forKey: .wifiReenabledInAirplaneMode)
        wifiReenabledInAirplaneMode = airplaneMode && reenabled
        locked = try container.decode(Bool.self, forKey: .locked)
        // Conditions stored before the power state existed: not on power.
        onPower = try container.decodeIfPresent(Bool.self, forKey: .onPower) ?? false
        // Conditions stored before the setting existed: not allowed.
        localNetworkAllowed = try container.decodeIfPresent(Bool.self, forKey: .localNetworkAllowed) ?? false
        wifiTimer = try container.decode(WiFiPowerTimer.self, forKey: .wifiTimer)
        clock = try container.decode(NetworkClock.self, forKey: .clock)
    }
}

extension DeviceNetwork {
    /// The interface a transfer would use at `now` (on ``clock``), or why
    /// there is none.
    ///
    /// Wi-Fi is used when its radio is on, the device is unlocked and the
    /// power timer has not turned the hardware off; else cellular when its
    /// radio is on. With no route, the reason is the first that applies of:
    /// airplane mode (Wi-Fi not turned back on), the lock (Wi-Fi switched
    /// on), the power timer (Wi-Fi switched on), and no route (both switched off).
    public func route(at now: Double) -> Result<NetworkRoute, NetworkUnavailable> {
        if wifiRadioOn && !locked && !wifiTimer.hasPoweredOff(at: now, locked: false) { return .success(.wifi) }
        if cellularRadioOn { return .success(.cellular) }
        return .failure(unavailable(at: now))
    }

    /// ``route(at:)`` as a throwing call, for code that stops when the
    /// network is down: `let route = try network.requireRoute(at: now)`.
    public func requireRoute(at now: Double) throws(NetworkUnavailable) -> NetworkRoute {
        try route(at: now).get()
    }

    /// ``route(at:)`` at the clock's current time.
    public var currentRoute: Result<NetworkRoute, NetworkUnavailable> {
        route(at: clock.now)
    }

    /// The outage when no interface is up (``route(at:)`` has the order).
    private func unavailable(at now: Double) -> NetworkUnavailable {
        if airplaneMode && !wifiReenabledInAirplaneMode { return NetworkUnavailable(.airplaneMode) }
        if wifiRadioOn && locked { return NetworkUnavailable(.deviceLocked) }
        if wifiRadioOn && wifiTimer.hasPoweredOff(at: now, locked: false) {
            let deadline = wifiTimer.deadline
            return NetworkUnavailable(.wifiOffByTimer, message: NetworkUnavailable.defaultMessage(for: .wifiOffByTimer)
                + " (the timer was armed at \(NetworkClock.text(wifiTimer.armedAt)) and fired at \(NetworkClock.text(deadline)); "
                + "turn Wi-Fi off and on, or launch an app that requires persistent Wi-Fi)")
        }
        return NetworkUnavailable(.noRoute)
    }

}

extension Result where Success == NetworkRoute, Failure == NetworkUnavailable {
    /// The outage, when there is no route.
    public var unavailable: NetworkUnavailable? {
        if case .failure(let outage) = self { return outage }
        return nil
    }
}
