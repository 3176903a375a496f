/// iOS's Wi-Fi power timer: the Wi-Fi hardware is turned off
/// ``interval`` (30 minutes) after the timer was armed, unless a running app
/// requires persistent Wi-Fi (`UIRequiresPersistentWiFi` true), which holds
/// the timer for as long as it runs. When the last such app quits the timer
/// is armed again, from that moment.
///
/// The timer is also armed when the Wi-Fi radio powers up (Wi-Fi switched
/// on, airplane mode switched off with Wi-Fi on, Wi-Fi turned back on in
/// airplane mode). A lock does not touch it: while the device is locked the
/// holders have no effect (a locked device has no Wi-Fi at all), and once
/// unlocked they hold it again. The rules and their source are in the
/// module's article <doc:WiFiAndAirplaneMode>.
public struct WiFiPowerTimer: Codable, Sendable, Equatable, Hashable {
    /// How long the Wi-Fi hardware stays on with no app requiring it: 30 minutes.
    public static let interval: Double = 30 * 60

    /// When the timer was last armed (on the ``NetworkClock``).
    public private(set) var armedAt: Double
    /// The running apps that require persistent Wi-Fi, by bundle identifier, sorted.
    public private(set) var holders: [String]

    /// A timer armed at `armedAt`, held by `holders`.
    public init(armedAt: Double = 0, holders: [String] = []) {
        self.armedAt = armedAt
        self.holders = Array(Set(holders)).sorted()
    }

    /// Whether an app holds the timer (which has effect only while the device is unlocked).
    public var isHeld: Bool { !holders.isEmpty }

    /// When the hardware goes off if nothing holds the timer.
    public var deadline: Double { armedAt + Self.interval }

    /// Whether the timer has turned the Wi-Fi hardware off at `now`: not
    /// held (or held while `locked`, when the key has no effect) and
    /// ``interval`` has passed since it was armed.
    public func hasPoweredOff(at now: Double, locked: Bool) -> Bool {
        if isHeld && !locked { return false }
        return now >= deadline
    }

    /// Starts the 30 minutes again from `now`.
    mutating func arm(at now: Double) {
        armedAt = now
    }

    /// An app requiring persistent Wi-Fi started: it holds the timer, and
    /// the hardware, if the timer had turned it off, is on again (iOS opens
    /// a Wi-Fi connection when such an app launches).
    mutating func hold(for bundleID: String, at now: Double) {
        guard !holders.contains(bundleID) else { return }
        holders.append(bundleID)
        holders.sort()
        // While held the deadline does not matter; arming here records when
        // the hardware last powered up.
        armedAt = now
    }

    /// An app quit: if it held the timer and was the last to, the timer is
    /// armed again from `now`.
    mutating func release(_ bundleID: String, at now: Double) {
        guard let index = holders.firstIndex(of: bundleID) else { return }
        holders.remove(at: index)
        if holders.isEmpty { armedAt = now }
    }
}

extension WiFiPowerTimer {
    enum CodingKeys: String, CodingKey { case armedAt, holders }

    /// Decodes a timer, refusing an arming time that is not finite; the
    /// holders are kept sorted and unique.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let armedAt = try container.decode(Double.self, forKey: .armedAt)
        guard armedAt.isFinite else {
            throw DecodingError.dataCorruptedError(forKey: .armedAt, in: container,
                                                   debugDescription: "the Wi-Fi timer was armed at \(armedAt) s; it must be finite")
        }
        self.init(armedAt: armedAt, holders: try container.decode([String].self, forKey: .holders))
    }
}
