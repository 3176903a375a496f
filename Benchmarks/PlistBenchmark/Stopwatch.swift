/// Best-of-N wall-clock timing.
///
/// The fastest repetition is the one least disturbed by other work on the
/// machine, so it is the figure reported. Only the call itself is timed:
/// the previous result is released before the clock starts, so
/// deallocating a large tree does not count against a decoder.
enum Stopwatch {
    /// Runs `body` `repetitions` times (at least once) and returns the
    /// shortest duration and the last result.
    static func best<Result>(of repetitions: Int, _ body: () throws -> Result) throws -> (time: Duration, result: Result) {
        let clock = ContinuousClock()
        var best = Duration.seconds(Int64.max)
        var kept: Result?
        for _ in 0..<max(repetitions, 1) {
            kept = nil
            let start = clock.now
            let result = try body()
            let elapsed = start.duration(to: clock.now)
            best = min(best, elapsed)
            kept = result
        }
        guard let kept else { throw BenchmarkFailure("no repetition ran") }
        return (best, kept)
    }
}

extension Duration {
    /// The duration in seconds as a `Double`.
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) * 1e-18
    }
}

/// A benchmark that could not run, with the reason.
struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
