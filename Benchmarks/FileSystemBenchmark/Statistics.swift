import Foundation

/// Per-call timings of competitors run in turn, and their summaries.
struct Samples {
    private(set) var values: [[Double]]

    init(competitors: Int) { values = Array(repeating: [], count: competitors) }

    mutating func add(_ microseconds: Double, to competitor: Int) { values[competitor].append(microseconds) }

    func median(_ competitor: Int) -> Double {
        let sorted = values[competitor].sorted()
        return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
    }

    func best(_ competitor: Int) -> Double { values[competitor].min() ?? .nan }

    func mean(_ competitor: Int) -> Double {
        let values = values[competitor]
        return values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count)
    }

    func tenthPercentile(_ competitor: Int) -> Double {
        let sorted = values[competitor].sorted()
        return sorted.isEmpty ? .nan : sorted[sorted.count / 10]
    }
}

/// Runs `body` and returns its duration in microseconds.
@inline(__always)
func time(_ clock: ContinuousClock, _ body: () throws -> Void) rethrows -> Double {
    let start = clock.now
    try body()
    let (seconds, attoseconds) = start.duration(to: clock.now).components
    return (Double(seconds) + Double(attoseconds) * 1e-18) * 1e6
}

/// The calling thread's CPU time for `body`, in microseconds: a process's
/// own cost, whatever the disk or other threads do meanwhile.
func threadCPUTime(_ body: () throws -> Void) rethrows -> Double {
    var start = timespec(), end = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
    try body()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end)
    return Double(end.tv_sec - start.tv_sec) * 1e6 + Double(end.tv_nsec - start.tv_nsec) / 1e3
}

/// `value` µs with sensible precision.
func format(_ value: Double) -> String {
    String(format: value >= 100 ? "%.0f" : value >= 1 ? "%.2f" : "%.3f", value)
}

/// "a / b" as "0.93×".
func ratio(_ a: Double, _ b: Double) -> String { String(format: "%.2f×", a / b) }
