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
