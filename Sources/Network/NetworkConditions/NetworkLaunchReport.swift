/// What the network conditions meant for one app launch.
public struct NetworkLaunchReport: Codable, Sendable, Equatable, Hashable {
    /// Whether the app's `Info.plist` has `UIRequiresPersistentWiFi` as the Boolean true.
    public var requiresPersistentWiFi: Bool
    /// Whether the system shows the airplane-mode alert: the app requires
    /// persistent Wi-Fi, it launched in airplane mode, and Wi-Fi has not been
    /// turned back on since airplane mode was switched on.
    public var airplaneModeAlert: Bool
    /// Whether the app holds the Wi-Fi power timer while it runs.
    public var holdsWiFiTimer: Bool
    /// The route at launch, if any.
    public var route: NetworkRoute?
    /// Why there was no route at launch, if there was none.
    public var unavailable: NetworkUnavailable?

    /// Creates a report.
    public init(requiresPersistentWiFi: Bool, airplaneModeAlert: Bool, holdsWiFiTimer: Bool,
                route: NetworkRoute?, unavailable: NetworkUnavailable?) {
        self.requiresPersistentWiFi = requiresPersistentWiFi
        self.airplaneModeAlert = airplaneModeAlert
        self.holdsWiFiTimer = holdsWiFiTimer
        self.route = route
        self.unavailable = unavailable
    }

    /// The alert's text, as iOS words it, when it is shown.
    public static func alertText(appName: String) -> String {
        "Turn Off Airplane Mode or Use Wi-Fi to Access Data: \(appName) requires a network connection, and airplane mode is on."
    }
}

extension DeviceNetwork {
    /// Whether the airplane-mode alert is shown for an app launched now: it
    /// requires persistent Wi-Fi, the device is in airplane mode, and Wi-Fi
    /// has not been turned back on since airplane mode was switched on.
    public func showsAirplaneModeAlert(requiresPersistentWiFi: Bool) -> Bool {
        requiresPersistentWiFi && airplaneMode && !wifiReenabledInAirplaneMode
    }

    /// An app starts. One that requires persistent Wi-Fi holds the power
    /// timer while it runs (and powers the Wi-Fi hardware up again if the
    /// timer had turned it off); the airplane-mode alert is decided now.
    public mutating func appLaunched(_ bundleID: String, requiresPersistentWiFi: Bool) -> NetworkLaunchReport {
        let alert = showsAirplaneModeAlert(requiresPersistentWiFi: requiresPersistentWiFi)
        if requiresPersistentWiFi { wifiTimer.hold(for: bundleID, at: clock.now) }
        let route = currentRoute
        return NetworkLaunchReport(requiresPersistentWiFi: requiresPersistentWiFi, airplaneModeAlert: alert,
                                   holdsWiFiTimer: requiresPersistentWiFi,
                                   route: try? route.get(), unavailable: route.unavailable)
    }

    /// An app quit (or was found dead): if it held the power timer and was
    /// the last to, the timer is armed again from now.
    public mutating func appQuit(_ bundleID: String) {
        wifiTimer.release(bundleID, at: clock.now)
    }

    /// Releases the timer for every holder not in `running` (apps that ended
    /// without a quit being recorded: killed, crashed, the device rebooted).
    public mutating func releaseHolders(notIn running: Set<String>) {
        for holder in wifiTimer.holders where !running.contains(holder) { appQuit(holder) }
    }
}
