import AsyncHTTPClient
import CacheManifest
import Container
import Crypto
import FileSystem
import Foundation
import NIOCore
import NIOHTTP1
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

extension Downloader {
    /// One attempt: a request (with `Range`/`If-Range` when a part can be
    /// resumed), the body streamed to the part by a ``PartWriter`` on the
    /// event loop, then verification and the move into place.
    func attemptDownload(_ request: DownloadRequest, from location: URL, into container: AppContainer, client: HTTPClient,
                         deadline seconds: Double,
                         progress: (@Sendable (DownloadProgress) -> Void)?) async -> Result<DownloadResult, AttemptFailure> {
        let url = request.url.absoluteString
        let partial = PartialDownload(container: container, url: request.url, destination: request.destination)
        var headers = HTTPHeaders()
        var resumable: PartWriter.Resumable?
        if let found = partial.resumable() {
            // The bytes already there are hashed here, off the event loop, so
            // that a 206 continues the digest; a 200 starts a new one.
            var hasher = SHA256()
            do { try Self.hashPrefix(of: found.handle, count: found.bytes, into: &hasher) } catch {
                found.handle.close()
                return .failure(AttemptFailure(error: NetworkError(.file, url: url, "cannot read the part", underlying: error)))
            }
            resumable = PartWriter.Resumable(handle: found.handle, bytes: found.bytes, source: found.source, hasher: hasher)
            headers.add(name: "Range", value: "bytes=\(found.bytes)-")
            headers.add(name: "If-Range", value: found.source.validator)
        }
        let floor = configuration.minimumRate > 0 && configuration.rateWindow > 0
            ? PartWriter.RateFloor(bytes: Int64(configuration.minimumRate * configuration.rateWindow), seconds: configuration.rateWindow)
            : nil
        let writer = PartWriter(partial: partial, resumable: resumable, limit: sizeLimit(of: request), floor: floor, progress: progress)
        defer { writer.close() }
        let httpRequest: HTTPClient.Request
        do { httpRequest = try HTTPClient.Request(url: location.absoluteString, method: .GET, headers: headers) } catch {
            return .failure(AttemptFailure(error: NetworkError(.invalidRequest, url: url, "cannot make the request", underlying: error)))
        }
        let task = client.execute(request: httpRequest, delegate: writer,
                                  deadline: .now() + .milliseconds(Int64(max(0, seconds) * 1000)))
        do {
            try await withTaskCancellationHandler { try await task.futureResult.get() } onCancel: { task.cancel() }
        } catch {
            if let failure = writer.failure { return .failure(failure) }
            if writer.handle == nil {
                return .failure(AttemptFailure(error: NetworkError(HTTPFailure.code(of: error), url: url, "the request failed", underlying: error)))
            }
            return .failure(AttemptFailure(error: NetworkError(HTTPFailure.code(of: error), url: url,
                "the transfer broke off at byte \(writer.offset)", underlying: error), bytesReceived: writer.offset - writer.resumedFrom))
        }
        guard let handle = writer.handle else {
            return .failure(AttemptFailure(error: NetworkError(.connectionLost, url: url, "the response had no head")))
        }
        let offset = writer.offset
        let received = offset - writer.resumedFrom
        if let total = writer.total, offset != total {
            return .failure(AttemptFailure(error: NetworkError(.connectionLost, url: url,
                "the body ended at byte \(offset) of \(total)"), bytesReceived: received))
        }
        let digest = ContentDigest.hex(writer.hasher.finalize())
        if let expected = request.expectedSHA256, expected.lowercased() != digest {
            partial.discard()
            return .failure(AttemptFailure(error: NetworkError(.integrity, url: url,
                "the content's SHA-256 is \(digest), expected \(expected); the part was discarded"), bytesReceived: received))
        }
        if let expected = request.expectedSize, expected != offset {
            partial.discard()
            return .failure(AttemptFailure(error: NetworkError(.integrity, url: url,
                "the content is \(offset) bytes, expected \(expected); the part was discarded"), bytesReceived: received))
        }
        do { try partial.complete(into: request.destination, handle: handle, durability: request.durability) } catch {
            return .failure(AttemptFailure(error: NetworkError(.file, url: url, "cannot move the file into place", underlying: error),
                                           bytesReceived: received))
        }
        return .success(DownloadResult(path: request.destination, size: offset, sha256: digest, etag: writer.etag,
                                       lastModified: writer.lastModified, resumedFrom: writer.resumedFrom, bytesReceived: received,
                                       attempts: 1, started: 0, ended: Date().timeIntervalSince1970))
    }

    /// The smallest of the limits a body must stay under: the expected
    /// size, the request's limit (the cache's), the downloader's maximum.
    func sizeLimit(of request: DownloadRequest) -> PartWriter.SizeLimit? {
        let candidates: [(Int64?, String)] = [(request.expectedSize, "the expected size"), (request.sizeLimit, "the size limit"),
                                              (configuration.maxResourceSize, "the downloader's maximum")]
        return candidates.compactMap { bytes, name in bytes.map { PartWriter.SizeLimit(bytes: $0, name: name) } }
            .min { $0.bytes < $1.bytes }
    }

    /// Hashes the part's first `count` bytes, so a resumed download's
    /// digest covers the whole file.
    static func hashPrefix(of handle: ContainerFileHandle, count: Int64, into hasher: inout SHA256) throws {
        var offset: Int64 = 0
        while offset < count {
            let data = try handle.read(at: UInt64(offset), count: Int(min(Int64(1 << 20), count - offset)))
            if data.isEmpty { break }
            hasher.update(data: data)
            offset += Int64(data.count)
        }
    }
}

/// `Content-Range: bytes START-END/TOTAL`.
struct ContentRange: Equatable {
    var start: Int64
    var end: Int64
    var total: Int64?

    init?(_ text: String) {
        guard text.hasPrefix("bytes ") else { return nil }
        let parts = text.dropFirst(6).split(separator: "/", maxSplits: 1)
        let bounds = parts.first?.split(separator: "-", maxSplits: 1) ?? []
        guard bounds.count == 2, let start = Int64(bounds[0]), let end = Int64(bounds[1]), start <= end else { return nil }
        self.start = start
        self.end = end
        total = parts.count == 2 ? Int64(parts[1]) : nil
    }

    /// The resource's whole length that a `Content-Range` states after its
    /// slash, whatever comes before it: `bytes */N` (a 416) or a range.
    static func completeLength(_ text: String) -> Int64? {
        guard text.hasPrefix("bytes "), let slash = text.lastIndex(of: "/") else { return nil }
        return Int64(text[text.index(after: slash)...])
    }
}

/// A response read whole (small bodies only).
public struct SentResponse: Sendable, Equatable {
    public var status: Int
    public var body: Data
}

extension Downloader {
    /// Sends one request and reads its response (up to `limit` bytes).
    /// Idempotent methods are retried as downloads are; any other method
    /// (POST, PATCH) is sent at most once: after a reset the caller cannot
    /// know whether the server acted, so it is told, not retried.
    public func send(_ method: String, to url: URL, body: Data = Data(), limit: Int = 16 << 20) async throws(NetworkError) -> SentResponse {
        let text = url.absoluteString
        guard let host = HostPolicy.origin(of: url) else { throw NetworkError(.invalidRequest, url: text, "the URL has no host") }
        let policy = RetryPolicy.isIdempotent(method) ? configuration.retry : .never
        let started = Date().timeIntervalSince1970
        var attempt = 0
        while true {
            attempt += 1
            if case .failure(let unavailable) = conditions() {
                throw NetworkError(.unavailable(unavailable.reason), url: text, attempts: attempt - 1, unavailable.message)
            }
            await limiter.acquire(host)
            var request = HTTPClientRequest(url: text)
            request.method = .RAW(value: method.uppercased())
            if !body.isEmpty { request.body = .bytes(ByteBuffer(bytes: body)) }
            var failure: NetworkError
            var retryAfter: Double?
            // The total limit bounds the attempt under way too.
            let remaining = policy.totalLimit - (Date().timeIntervalSince1970 - started)
            let seconds = max(0, min(configuration.attemptTimeout, remaining))
            do {
                let response = try await client.execute(request, timeout: .milliseconds(Int64(seconds * 1000)))
                let collected = try await response.body.collect(upTo: limit)
                await limiter.release(host)
                let status = Int(response.status.code)
                let answer = SentResponse(status: status, body: Data(collected.readableBytesView))
                let retryable = NetworkError(.httpStatus(status), url: text, "").isTransient
                guard retryable, attempt < policy.maxAttempts else { return answer }
                failure = NetworkError(.httpStatus(status), url: text, attempts: attempt, "the server answered \(status)")
                retryAfter = response.headers.first(name: "Retry-After").flatMap { Double($0) }
            } catch {
                await limiter.release(host)
                failure = NetworkError(HTTPFailure.code(of: error), url: text, attempts: attempt, "\(method) failed", underlying: error)
            }
            let delay = policy.delay(afterAttempt: attempt, retryAfter: retryAfter)
            guard failure.isTransient, attempt < policy.maxAttempts,
                  Date().timeIntervalSince1970 - started + delay < policy.totalLimit else { throw failure }
            do { try await Task.sleep(for: .milliseconds(Int(delay * 1000))) } catch {
                throw NetworkError(.cancelled, url: text, attempts: attempt, "cancelled")
            }
        }
    }
}
