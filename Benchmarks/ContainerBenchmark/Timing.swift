import Foundation

/// Timings per call, in microseconds.
enum Timing {
    /// The median over `rounds` rounds of `iterations` calls of `body`, per call.
    static func microseconds(rounds: Int, iterations: Int, _ body: (Int) throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        var perCall: [Double] = []
        for _ in 0..<rounds {
            let start = clock.now
            for index in 0..<iterations { try body(index) }
            let (seconds, attoseconds) = start.duration(to: clock.now).components
            perCall.append((Double(seconds) + Double(attoseconds) * 1e-18) / Double(iterations) * 1e6)
        }
        return perCall.sorted()[perCall.count / 2]
    }

    /// Runs each competitor's round in turn, `rounds` times, so that load
    /// from other work on the machine hits all of them alike; returns each
    /// one's median round, per call.
    static func interleaved(rounds: Int, iterations: Int, _ competitors: [(Int) throws -> Void]) throws -> [Double] {
        var results = Array(repeating: [Double](), count: competitors.count)
        for _ in 0..<rounds {
            for (index, body) in competitors.enumerated() {
                results[index].append(try microseconds(rounds: 1, iterations: iterations, body))
            }
        }
        return results.map { $0.sorted()[$0.count / 2] }
    }

    /// Calls each competitor once in turn, `calls` times, timing every call;
    /// returns each one's median call. For operations that wait for the
    /// disk, whose cost swings with other writers on the machine: adjacent
    /// calls see the same load.
    static func alternating(calls: Int, _ competitors: [(Int) throws -> Void]) throws -> [Double] {
        let clock = ContinuousClock()
        var results = Array(repeating: [Double](), count: competitors.count)
        for call in 0..<calls {
            for (index, body) in competitors.enumerated() {
                let start = clock.now
                try body(call)
                let (seconds, attoseconds) = start.duration(to: clock.now).components
                results[index].append((Double(seconds) + Double(attoseconds) * 1e-18) * 1e6)
            }
        }
        return results.map { $0.sorted()[$0.count / 2] }
    }

    /// `value` µs with sensible precision.
    static func format(_ value: Double) -> String {
        value >= 100 ? String(format: "%.0f", value) : value >= 1 ? String(format: "%.2f", value) : String(format: "%.3f", value)
    }
}
