import CodedErrors
import NetworkConditions

/// A transfer failed: why, for which URL, after how many attempts, and the
/// error behind it (a container's full disk) when there was one.
public struct NetworkError: Error, Sendable, Equatable, CustomStringConvertible, CausedError {
    /// The kinds of failure.
    public enum Code: Sendable, Equatable {
        /// The device has no usable network, and why (airplane mode, Wi-Fi
        /// turned off by the power timer, the device locked, no route).
        case unavailable(NetworkUnavailable.Reason)
        /// The server answered with this status (not one worth retrying, or
        /// retries were exhausted on it).
        case httpStatus(Int)
        /// The connection closed or reset before the response was complete.
        case connectionLost
        /// No byte arrived for the stall timeout.
        case stalled
        /// The attempt's deadline passed.
        case timedOut
        /// Nothing listens at the address (the server is gone).
        case refused
        /// The content is not what was expected (size or SHA-256).
        case integrity
        /// The request was cancelled.
        case cancelled
        /// The file could not be written in the container.
        case file
        /// The request itself is malformed (a URL without host, say).
        case invalidRequest
        /// The file is larger than the whole cache may hold.
        case exceedsCacheLimit
        /// The body went past the size it may have (the expected size, the
        /// server's length, the cache's limit or the downloader's maximum),
        /// and was stopped at that point while streaming.
        case tooLarge
        /// The body arrived slower than the minimum rate (a drip). Not
        /// retried: the part stays, and a later download resumes it.
        case tooSlow
        /// The host policy refused the target before any connection: an
        /// origin the app did not declare, or a private, link-local or
        /// other special-purpose address (``HostPolicy``).
        case hostRefused
        /// More redirects than ``HostPolicy/maxRedirects``.
        case tooManyRedirects
    }

    public var code: Code
    /// The URL concerned.
    public var url: String
    /// How many attempts were made.
    public var attempts: Int
    /// What went wrong, in words.
    public var message: String
    /// The error behind the failure, if any: kept, not compared.
    @UncomparedCause public var underlying: (any Error)? = nil

    public init(_ code: Code, url: String, attempts: Int = 1, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.url = url
        self.attempts = attempts
        self.message = message
        self.underlying = underlying
    }

    /// The URL and the message, then the cause's description.
    public var description: String {
        describing(attempts > 1 ? "\(url): \(message) (after \(attempts) attempts)" : "\(url): \(message)")
    }

    /// Whether another attempt of an idempotent request may succeed.
    var isTransient: Bool {
        switch code {
        case .connectionLost, .stalled, .timedOut, .refused: true
        case .httpStatus(let status): status == 408 || status == 429 || status == 502 || status == 503 || status == 504
        case .unavailable, .integrity, .cancelled, .file, .invalidRequest, .exceedsCacheLimit, .tooLarge, .tooSlow,
             .hostRefused, .tooManyRedirects: false
        }
    }
}
