/// Timeouts and limits of a ``Downloader``.
public struct DownloaderConfiguration: Sendable, Equatable {
    /// Seconds to establish a connection.
    public var connectTimeout: Double
    /// Seconds without a byte before a transfer counts as stalled.
    public var stallTimeout: Double
    /// Seconds one attempt may take in all (never more than what is left
    /// of ``RetryPolicy/totalLimit``).
    public var attemptTimeout: Double
    /// Transfers at once to one host.
    public var maxConnectionsPerHost: Int
    /// When to try again.
    public var retry: RetryPolicy
    /// The least average rate, in bytes a second over each
    /// ``rateWindow``, below which an attempt fails (``NetworkError/Code/tooSlow``):
    /// a server dripping a byte every few seconds never trips the stall
    /// timeout, which only sees silence. 0 turns the check off.
    public var minimumRate: Double
    /// Seconds over which the rate is measured, from the response's head on.
    public var rateWindow: Double
    /// The most bytes any one download may bring when nothing smaller is
    /// known (no expected size, no cache limit); nil for no bound.
    public var maxResourceSize: Int64?

    public init(connectTimeout: Double = 10, stallTimeout: Double = 15, attemptTimeout: Double = 600,
                maxConnectionsPerHost: Int = 6, retry: RetryPolicy = RetryPolicy(), minimumRate: Double = 1024,
                rateWindow: Double = 10, maxResourceSize: Int64? = 4 << 30) {
        self.connectTimeout = connectTimeout
        self.stallTimeout = stallTimeout
        self.attemptTimeout = attemptTimeout
        self.maxConnectionsPerHost = maxConnectionsPerHost
        self.retry = retry
        self.minimumRate = minimumRate
        self.rateWindow = rateWindow
        self.maxResourceSize = maxResourceSize
    }
}
