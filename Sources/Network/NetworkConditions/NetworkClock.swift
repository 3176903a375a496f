/// The time the network conditions run on, in seconds, moved only by
/// ``advance(by:)``: a test (or `sandbox network set --advance`) decides
/// when 30 minutes have passed, so the Wi-Fi power timer is reproducible.
///
/// A device keeps its clock with its conditions, so it survives reopening
/// the device; it starts at 0 when the device is created.
///
/// ```swift
/// var clock = NetworkClock()
/// clock.advance(by: 30 * 60)
/// clock.now   // 1800
/// ```
public struct NetworkClock: Codable, Sendable, Equatable, Hashable {
    /// Seconds since the clock started.
    public private(set) var now: Double

    /// A clock reading `now` seconds.
    public init(now: Double = 0) {
        self.now = now
    }

    /// Seconds for people: `1800 s`, `0.5 s`.
    public static func text(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? "\(Int64(seconds)) s" : "\(seconds) s"
    }

    /// Moves the clock forward. Time never runs backwards: a negative,
    /// infinite or NaN amount is refused.
    public mutating func advance(by seconds: Double) throws(NetworkClockError) {
        guard seconds.isFinite, seconds >= 0 else { throw NetworkClockError(seconds: seconds) }
        now += seconds
    }
}

/// An amount ``NetworkClock/advance(by:)`` refuses: negative or not finite.
public struct NetworkClockError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The amount refused.
    public var seconds: Double

    /// A message for people.
    public var description: String {
        "cannot advance the network clock by \(seconds) s: the amount must be a finite number of seconds, 0 or more"
    }
}

extension NetworkClock {
    enum CodingKeys: String, CodingKey { case now }

    /// Decodes a clock, refusing a time that is negative or not finite (a
    /// hand-edited or damaged record).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let now = try container.decode(Double.self, forKey: .now)
        guard now.isFinite, now >= 0 else {
            throw DecodingError.dataCorruptedError(forKey: .now, in: container,
                                                   debugDescription: "the network clock reads \(now) s; it must be finite and 0 or more")
        }
        self.now = now
    }
}
