/// How long a radio stays in its high-power state for a set of transfers.
///
/// A radio does not power down when a transfer ends: it lingers in its
/// high-power state for a *tail* time in case more traffic follows. A
/// transfer from `start` to `end` therefore keeps the radio on over
/// `[start, end + tail]`, and the radio-on time of many transfers is the
/// length of the union of those intervals: transfers sent together share
/// one tail, transfers spread out each pay their own. That is why iOS's
/// guide asks apps to send one large batch rather than a burst every few
/// seconds, and what ``radioOnTime`` measures.
///
/// ```swift
/// var model = RadioPowerModel(route: .cellular)
/// try model.record(start: 0, end: 0.1)
/// try model.record(start: 0.05, end: 0.2)   // overlaps: one tail
/// model.radioOnTime                        // 0.2 + tail
/// ```
public struct RadioPowerModel: Codable, Sendable, Equatable, Hashable {
    /// One transfer, in seconds on the caller's clock.
    public struct Transfer: Codable, Sendable, Equatable, Hashable {
        /// When it started.
        public var start: Double
        /// When it ended (not before `start`).
        public var end: Double
    }

    /// Measured tail times, in seconds.
    ///
    /// - Cellular, LTE: 11.576 s in RRC_CONNECTED after the last packet
    ///   before the radio drops to idle (Huang et al., "A Close Examination
    ///   of Performance and Power Characteristics of 4G LTE Networks",
    ///   MobiSys 2012, Table 3: T_tail); operators set the LTE inactivity
    ///   timer around 10 s.
    /// - Cellular, 3G (UMTS): about 5 s in DCH then about 12 s in FACH
    ///   (Qian et al., "Characterizing Radio Resource Allocation for 3G
    ///   Networks", IMC 2010); the high-power part is the 5 s DCH tail.
    /// - Wi-Fi: 0.238 s before power-save mode resumes (Huang et al.,
    ///   same paper, Wi-Fi's tail); Balasubramanian et al. ("Energy
    ///   Consumption in Mobile Phones", IMC 2009) found Wi-Fi's tail
    ///   negligible next to 3G's and GSM's.
    public enum Tail {
        /// LTE's high-power tail: 11.576 s.
        public static let lte: Double = 11.576
        /// 3G's high-power (DCH) tail: 5 s.
        public static let umts: Double = 5
        /// Wi-Fi's tail: 0.238 s.
        public static let wifi: Double = 0.238

        /// The tail the model uses for a route: LTE for cellular (today's
        /// network, and the longer tail), Wi-Fi's for Wi-Fi.
        public static func `for`(_ route: NetworkRoute) -> Double {
            switch route {
            case .wifi: return wifi
            case .cellular: return lte
            }
        }
    }

    /// The tail after each transfer, in seconds.
    public let tail: Double
    /// The transfers recorded, in the order they were recorded.
    public private(set) var transfers: [Transfer] = []

    /// A model with the cellular (LTE) tail, the one batching saves most on.
    public init() {
        self.init(route: .cellular)
    }

    /// A model with the measured tail of `route` (``Tail/for(_:)``).
    public init(route: NetworkRoute) {
        tail = Tail.for(route)
    }

    /// A model with a tail of `tail` seconds.
    ///
    /// - Throws: ``RadioPowerModelError`` when `tail` is negative or not finite.
    public init(tail: Double) throws(RadioPowerModelError) {
        guard tail.isFinite, tail >= 0 else { throw RadioPowerModelError(.invalidTail, start: tail, end: tail) }
        self.tail = tail
    }

    /// Records a transfer from `start` to `end`.
    ///
    /// - Throws: ``RadioPowerModelError`` when a time is not finite or `end`
    ///   is before `start`.
    public mutating func record(start: Double, end: Double) throws(RadioPowerModelError) {
        guard start.isFinite, end.isFinite else { throw RadioPowerModelError(.notFinite, start: start, end: end) }
        guard end >= start else { throw RadioPowerModelError(.endBeforeStart, start: start, end: end) }
        transfers.append(Transfer(start: start, end: end))
    }

    /// The seconds the radio spends in its high-power state: the length of
    /// the union of `[start, end + tail]` over every transfer.
    public var radioOnTime: Double {
        var total = 0.0
        var current: (start: Double, end: Double)?
        for transfer in transfers.sorted(by: { $0.start < $1.start }) {
            let interval = (start: transfer.start, end: transfer.end + tail)
            if let open = current, interval.start <= open.end {
                current = (open.start, max(open.end, interval.end))
            } else {
                if let open = current { total += open.end - open.start }
                current = interval
            }
        }
        if let open = current { total += open.end - open.start }
        return total
    }

    /// How many separate high-power periods the transfers cause (each ends
    /// with one tail).
    public var radioOnPeriods: Int {
        var count = 0
        var end = -Double.infinity
        for transfer in transfers.sorted(by: { $0.start < $1.start }) {
            if transfer.start > end { count += 1 }
            end = max(end, transfer.end + tail)
        }
        return count
    }
}

/// A transfer or tail ``RadioPowerModel`` refuses.
public struct RadioPowerModelError: Error, Sendable, Equatable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public enum Code: String, Sendable, Hashable, Codable, CaseIterable {
        /// A time is infinite or NaN.
        case notFinite
        /// The transfer ends before it starts.
        case endBeforeStart
        /// The tail is negative or not finite.
        case invalidTail
    }

    /// What was wrong.
    public var code: Code
    /// The start given (the tail, for ``Code/invalidTail``).
    public var start: Double
    /// The end given (the tail, for ``Code/invalidTail``).
    public var end: Double

    /// Creates an error.
    public init(_ code: Code, start: Double, end: Double) {
        self.code = code
        self.start = start
        self.end = end
    }

    /// A message for people.
    public var description: String {
        switch code {
        case .notFinite: return "cannot record a transfer from \(start) to \(end): times must be finite"
        case .endBeforeStart: return "cannot record a transfer from \(start) to \(end): it ends before it starts"
        case .invalidTail: return "a radio tail of \(start) s is not allowed: it must be finite and 0 or more"
        }
    }
}
