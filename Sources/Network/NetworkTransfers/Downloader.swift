import AsyncHTTPClient
import Container
import Foundation
import NIOCore
import NetworkConditions
import Synchronization

/// Downloads files into a container over HTTP (AsyncHTTPClient, streamed
/// to disk, never buffered whole).
///
/// - Idempotent requests are retried on a reset, a stall, a refused
///   connection or a 502/503/504/429, with ``RetryPolicy``'s capped,
///   jittered back-off and the server's `Retry-After`; a non-idempotent
///   one never is (``send(_:to:body:)``).
/// - A download resumes with `Range` and `If-Range`. When the resource
///   changed (another ETag) it starts again from byte 0: two versions are
///   never spliced.
/// - The file is written under `Library/Caches/.partial/` and moved to its
///   name only when complete and verified.
/// - Before each attempt the device's conditions are asked; without a
///   network the error says why (``NetworkError/Code/unavailable(_:)``).
///
/// ```swift
/// let downloader = Downloader()
/// let result = try await downloader.download(
///     DownloadRequest(url: url, destination: "Library/Caches/maps/1.png"), into: container)
/// ```
public final class Downloader: Sendable {
    /// Answers whether the device can reach the network now, and how.
    public typealias Conditions = @Sendable () -> Result<NetworkRoute, NetworkUnavailable>

    public let configuration: DownloaderConfiguration
    let client: HTTPClient
    let limiter: HostLimiter
    let conditions: Conditions
    let transfers = Mutex<[ClosedRange<Double>]>([])

    /// A downloader with its own connection pool. `conditions` defaults to
    /// a device always on Wi-Fi.
    public init(configuration: DownloaderConfiguration = DownloaderConfiguration(),
                conditions: @escaping Conditions = { .success(.wifi) }) {
        self.configuration = configuration
        self.conditions = conditions
        limiter = HostLimiter(limit: configuration.maxConnectionsPerHost)
        client = SharedHTTPClients.client(for: configuration)
    }

    /// Lets go of the downloader. Its connections belong to a process-wide
    /// pool shared by downloaders with the same settings, which closes idle
    /// connections by itself, so there is nothing to wait for; the call is
    /// kept so callers need not change if that ever differs.
    public func shutdown() async {}

    /// The time spans during which transfers ran (seconds since 1970), for
    /// the radio model.
    public var transferSpans: [ClosedRange<Double>] { transfers.withLock { $0 } }

    // MARK: Downloading

    /// Downloads `request.url` to `request.destination` in `container`,
    /// resuming a part left by an earlier attempt or process.
    public func download(_ request: DownloadRequest, into container: AppContainer,
                         progress: (@Sendable (DownloadProgress) -> Void)? = nil) async throws(NetworkError) -> DownloadResult {
        let url = request.url.absoluteString
        guard let host = Self.origin(of: request.url) else {
            throw NetworkError(.invalidRequest, url: url, "the URL has no host")
        }
        let policy = configuration.retry
        let started = Date().timeIntervalSince1970
        var attempt = 0
        var received: Int64 = 0
        while true {
            attempt += 1
            if case .failure(let unavailable) = conditions() {
                throw NetworkError(.unavailable(unavailable.reason), url: url, attempts: attempt - 1, unavailable.message)
            }
            await limiter.acquire(host)
            let outcome: Result<DownloadResult, AttemptFailure>
            let spanStart = Date().timeIntervalSince1970
            outcome = await attemptDownload(request, into: container, progress: progress)
            let spanEnd = Date().timeIntervalSince1970
            transfers.withLock { $0.append(spanStart...spanEnd) }
            await limiter.release(host)
            switch outcome {
            case .success(var result):
                result.bytesReceived += received
                result.attempts = attempt
                result.started = started
                return result
            case .failure(let failure):
                received += failure.bytesReceived
                var error = failure.error
                error.attempts = attempt
                let elapsed = Date().timeIntervalSince1970 - started
                let delay = policy.delay(afterAttempt: attempt, retryAfter: failure.retryAfter)
                guard error.isTransient, attempt < policy.maxAttempts, elapsed + delay <= policy.totalLimit,
                      !Task.isCancelled else { throw error }
                do { try await Task.sleep(for: .milliseconds(Int(delay * 1000))) } catch {
                    throw NetworkError(.cancelled, url: url, attempts: attempt, "cancelled")
                }
            }
        }
    }

    /// `host:port`, the key of the per-host limit (two servers on one
    /// address are two hosts), or nil for a URL without a host.
    static func origin(of url: URL) -> String? {
        guard let host = url.host, !host.isEmpty else { return nil }
        return url.port.map { "\(host):\($0)" } ?? host
    }

    /// One failed attempt: the error, the bytes it still brought, and the
    /// server's `Retry-After`.
    struct AttemptFailure: Error {
        var error: NetworkError
        var bytesReceived: Int64 = 0
        var retryAfter: Double?
    }
}
