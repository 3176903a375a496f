/// The interface a transfer goes out on. Wi-Fi is preferred when both are up
/// (iOS sends over Wi-Fi when it has it, and falls back to the cellular network).
public enum NetworkRoute: String, Codable, Sendable, Hashable, CaseIterable {
    /// The Wi-Fi interface.
    case wifi
    /// The cellular (WWAN) interface.
    case cellular
}
