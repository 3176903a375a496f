// Placeholder for the helper's module (branch netcond); replaced at merge.
public enum NetworkRoute: String, Sendable, Codable { case wifi, cellular }
public struct NetworkUnavailable: Error, Sendable, Equatable {
    public enum Reason: String, Codable, Sendable { case airplaneMode, wifiOffByTimer, deviceLocked, noRoute }
    public var reason: Reason
    public var message: String { reason.rawValue }
    public init(reason: Reason) { self.reason = reason }
}
public struct RadioPowerModel: Sendable {
    public var tail: Double
    var intervals: [(Double, Double)] = []
    public init(tail: Double) { self.tail = tail }
    public static let cellularTail = 12.0
    public mutating func record(start: Double, end: Double) { intervals.append((start, end)) }
    public var radioOnTime: Double {
        var total = 0.0, cursor = -Double.infinity
        for (s, e) in intervals.sorted(by: { $0.0 < $1.0 }) {
            let end = e + tail
            if s >= cursor { total += end - s; cursor = end } else if end > cursor { total += end - cursor; cursor = end }
        }
        return total
    }
}
