/// Timeouts and limits of a ``Downloader``.
public struct DownloaderConfiguration: Sendable, Equatable {
    /// Seconds to establish a connection.
    public var connectTimeout: Double
    /// Seconds without a byte before a transfer counts as stalled.
    public var stallTimeout: Double
    /// Seconds one attempt may take in all.
    public var attemptTimeout: Double
    /// Transfers at once to one host.
    public var maxConnectionsPerHost: Int
    /// When to try again.
    public var retry: RetryPolicy

    public init(connectTimeout: Double = 10, stallTimeout: Double = 15, attemptTimeout: Double = 600,
                maxConnectionsPerHost: Int = 6, retry: RetryPolicy = RetryPolicy()) {
        self.connectTimeout = connectTimeout
        self.stallTimeout = stallTimeout
        self.attemptTimeout = attemptTimeout
        self.maxConnectionsPerHost = maxConnectionsPerHost
        self.retry = retry
    }
}
