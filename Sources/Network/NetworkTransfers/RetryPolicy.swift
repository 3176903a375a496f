/// When an idempotent request is tried again: a capped number of attempts,
/// exponential back-off with full jitter, the server's `Retry-After`
/// honoured, and a bound on the total time. Non-idempotent requests are
/// never retried (``Downloader/send(_:to:body:)``).
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts in all, the first included.
    public var maxAttempts: Int
    /// The back-off before the second attempt; it doubles after each.
    public var baseDelay: Double
    /// The largest back-off, and the largest `Retry-After` obeyed.
    public var maxDelay: Double
    /// The total time after which no new attempt starts.
    public var totalLimit: Double

    public init(maxAttempts: Int = 6, baseDelay: Double = 0.1, maxDelay: Double = 10, totalLimit: Double = 120) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.totalLimit = totalLimit
    }

    /// No retries at all.
    public static let never = RetryPolicy(maxAttempts: 1)

    /// The pause before attempt `attempt + 1` (after `attempt` failures):
    /// the server's `Retry-After` when given (capped), else a random value
    /// up to the exponential back-off ("full jitter", so many clients that
    /// failed together do not retry together).
    public func delay(afterAttempt attempt: Int, retryAfter: Double?,
                      random: (ClosedRange<Double>) -> Double = { Double.random(in: $0) }) -> Double {
        if let retryAfter { return min(max(retryAfter, 0), maxDelay) }
        let ceiling = min(maxDelay, baseDelay * Double(1 << min(attempt - 1, 30)))
        return random(0...ceiling)
    }

    /// Whether the HTTP method may be sent twice with the same effect
    /// (RFC 9110 §9.2.2).
    public static func isIdempotent(_ method: String) -> Bool {
        ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"].contains(method.uppercased())
    }
}
