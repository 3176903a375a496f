import AsyncHTTPClient
import Container
import FileSystem
import Foundation
import NIOCore
import NetworkConditions

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
    let resolver: AddressResolver
    let transfers = Locked<[ClosedRange<Double>]>([])

    /// A downloader with its own connection pool. `conditions` defaults to
    /// a device always on Wi-Fi; `resolver` (the system's by default) gives
    /// the addresses the host policy checks.
    public init(configuration: DownloaderConfiguration = DownloaderConfiguration(),
                conditions: @escaping Conditions = { .success(.wifi) }, resolver: AddressResolver = .system) {
        self.configuration = configuration
        self.conditions = conditions
        self.resolver = resolver
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
    /// resuming a part left by an earlier attempt or process. The target of
    /// every attempt and redirect passes the request's ``HostPolicy`` before
    /// any connection; ``RetryPolicy/totalLimit`` bounds the whole call,
    /// the attempt under way included.
    public func download(_ request: DownloadRequest, into container: AppContainer,
                         progress: (@Sendable (DownloadProgress) -> Void)? = nil) async throws(NetworkError) -> DownloadResult {
        let url = request.url.absoluteString
        guard HostPolicy.origin(of: request.url) != nil else {
            throw NetworkError(.invalidRequest, url: url, attempts: 0, "the URL has no host")
        }
        let policy = configuration.retry
        let started = Date().timeIntervalSince1970
        var attempt = 0
        var received: Int64 = 0
        var location = request.url
        var redirects: [String] = []
        while true {
            attempt += 1
            if case .failure(let unavailable) = conditions() {
                throw NetworkError(.unavailable(unavailable.reason), url: url, attempts: attempt - 1, unavailable.message)
            }
            let remaining = policy.totalLimit - (Date().timeIntervalSince1970 - started)
            guard remaining > 0 else {
                throw NetworkError(.timedOut, url: url, attempts: attempt - 1, "the total limit of \(policy.totalLimit) s passed")
            }
            let outcome: Result<DownloadResult, AttemptFailure>
            switch await admit(location, for: request, attempts: attempt - 1) {
            case .failure(let refused):
                guard refused.error.isTransient else { throw refused.error }
                outcome = .failure(refused)
            case .success(let pin):
                let host = HostPolicy.origin(of: location) ?? url
                await limiter.acquire(host)
                // The connection goes to the address just checked, not to
                // a second lookup's answer.
                let lease = SharedHTTPClients.lease(for: configuration, pin: pin)
                let spanStart = Date().timeIntervalSince1970
                outcome = await attemptDownload(request, from: location, into: container, client: lease.client,
                                                deadline: min(configuration.attemptTimeout, remaining), progress: progress)
                let spanEnd = Date().timeIntervalSince1970
                SharedHTTPClients.release(lease)
                transfers.withLock { $0.append(spanStart...spanEnd) }
                await limiter.release(host)
            }
            switch outcome {
            case .success(var result):
                result.bytesReceived += received
                result.attempts = attempt
                result.started = started
                result.redirects = redirects
                return result
            case .failure(let failure):
                received += failure.bytesReceived
                if let target = failure.redirect {
                    location = try follow(target, from: location, for: request, after: redirects, attempts: attempt)
                    redirects.append(location.absoluteString)
                    attempt -= 1  // a redirect is not a failed attempt; the redirect cap bounds it
                    continue
                }
                var error = failure.error
                error.attempts = attempt
                let elapsed = Date().timeIntervalSince1970 - started
                let delay = policy.delay(afterAttempt: attempt, retryAfter: failure.retryAfter)
                guard error.isTransient, attempt < policy.maxAttempts, elapsed + delay < policy.totalLimit,
                      !Task.isCancelled else { throw error }
                do { try await Task.sleep(for: .milliseconds(Int(delay * 1000))) } catch {
                    throw NetworkError(.cancelled, url: url, attempts: attempt, "cancelled")
                }
            }
        }
    }

    /// The target of a redirect, if the policy lets it be followed: within
    /// the cap, an http(s) URL, and an allowed origin (the same one when
    /// the request declares none).
    private func follow(_ target: String, from location: URL, for request: DownloadRequest, after redirects: [String],
                        attempts: Int) throws(NetworkError) -> URL {
        let url = request.url.absoluteString
        let hostPolicy = request.hostPolicy
        guard redirects.count < hostPolicy.maxRedirects else {
            throw NetworkError(.tooManyRedirects, url: url, attempts: attempts,
                "more than \(hostPolicy.maxRedirects) redirects (\((redirects + [target]).joined(separator: " -> ")))")
        }
        guard let next = URL(string: target, relativeTo: location)?.absoluteURL,
              ["http", "https"].contains(next.scheme?.lowercased() ?? ""), HostPolicy.origin(of: next) != nil else {
            throw NetworkError(.invalidRequest, url: url, attempts: attempts, "the redirect from \(location) to \(target) is not an http(s) URL")
        }
        guard hostPolicy.admitsOrigin(of: next, from: request.url) else {
            throw NetworkError(.hostRefused, url: url, attempts: attempts,
                "the redirect from \(location.absoluteString) to \(next.absoluteString) leaves the allowed origins; not followed")
        }
        return next
    }

    /// Whether `location` may be reached under the request's policy (its
    /// origin, its literal address, every address its name resolves to):
    /// the failure says why not; success gives the address a name's
    /// connection must go to (nil for a literal address). Asked before each
    /// attempt, so nothing connects to a refused target; a name that does
    /// not resolve is a transient failure, as a refused connection is.
    func admit(_ location: URL, for request: DownloadRequest, attempts: Int) async -> Result<SharedHTTPClients.Pin?, AttemptFailure> {
        let url = request.url.absoluteString
        let policy = request.hostPolicy
        guard let written = location.host, !written.isEmpty else {
            return .failure(AttemptFailure(error: NetworkError(.invalidRequest, url: url, attempts: attempts, "\(location) has no host")))
        }
        var host = written
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard policy.admitsOrigin(of: location, from: request.url) else {
            return .failure(AttemptFailure(error: NetworkError(.hostRefused, url: url, attempts: attempts,
                "\(HostPolicy.origin(of: location) ?? host) is not one of the allowed origins")))
        }
        let literal = SpecialAddress.isLiteral(host)
        let addresses = literal ? [host] : await resolver.resolve(host)
        guard let first = addresses.first else {
            return .failure(AttemptFailure(error: NetworkError(.refused, url: url, attempts: attempts, "\(host) does not resolve")))
        }
        for address in addresses {
            if let reason = policy.refusal(of: address) {
                let via = address == host ? "" : " (\(host) resolves to it)"
                return .failure(AttemptFailure(error: NetworkError(.hostRefused, url: url, attempts: attempts, "\(reason)\(via); not connected")))
            }
        }
        return .success(literal ? nil : SharedHTTPClients.Pin(host: written, address: first))
    }

    /// One failed attempt: the error, the bytes it still brought, and the
    /// server's `Retry-After`.
    struct AttemptFailure: Error {
        var error: NetworkError
        var bytesReceived: Int64 = 0
        var retryAfter: Double?
        /// The `Location` of a redirect, to check and follow.
        var redirect: String?
    }
}
