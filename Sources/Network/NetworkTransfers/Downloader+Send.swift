import AsyncHTTPClient
import Foundation
import NIOCore

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
