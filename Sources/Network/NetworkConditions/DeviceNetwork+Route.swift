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
