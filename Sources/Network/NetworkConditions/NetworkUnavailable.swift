/// Why the device has no route for a transfer: the typed error the transfer
/// layer gives an app when the network is down.
///
/// ```swift
/// switch network.route(at: clock.now) {
/// case .success(let route): …
/// case .failure(let unavailable) where unavailable.reason == .airplaneMode: …
/// }
/// ```
public struct NetworkUnavailable: Error, Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// The kinds of outage (``DeviceNetwork/route(at:)`` says which one wins
    /// when several apply).
    public enum Reason: String, Codable, Sendable, Hashable, CaseIterable {
        /// Airplane mode is on and Wi-Fi has not been turned back on inside it.
        case airplaneMode
        /// Wi-Fi is switched on, but the 30-minute power timer turned the
        /// hardware off (no running app requires persistent Wi-Fi), and
        /// cellular is off.
        case wifiOffByTimer
        /// Wi-Fi is switched on, but the device is locked: a locked device
        /// has no Wi-Fi connection, `UIRequiresPersistentWiFi` or not.
        case deviceLocked
        /// Neither interface is switched on.
        case noRoute
    }

    /// What is down.
    public var reason: Reason
    /// A sentence for people: what is down and how to bring it back.
    public var message: String

    /// An outage for `reason`, with ``defaultMessage(for:)`` unless a more
    /// precise message is given.
    public init(_ reason: Reason, message: String? = nil) {
        self.reason = reason
        self.message = message ?? Self.defaultMessage(for: reason)
    }

    /// The message for each reason.
    public static func defaultMessage(for reason: Reason) -> String {
        switch reason {
        case .airplaneMode:
            return "the network is unavailable: airplane mode is on (turn it off, or turn Wi-Fi back on)"
        case .wifiOffByTimer:
            return "the network is unavailable: iOS turned the Wi-Fi hardware off after 30 minutes because no running app "
                + "requires persistent Wi-Fi, and there is no cellular data (switched off, or airplane mode)"
        case .deviceLocked:
            return "the network is unavailable: the device is locked, so it has no Wi-Fi connection, "
                + "and there is no cellular data (switched off, or airplane mode)"
        case .noRoute:
            return "the network is unavailable: Wi-Fi and cellular data are both turned off"
        }
    }

    /// The message.
    public var description: String { message }
}
