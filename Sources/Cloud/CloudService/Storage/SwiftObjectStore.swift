import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// Chunks as objects in one OpenStack Swift container: the distributed
/// store (`scripts/distributed-stack` boots a three-node ring with three
/// replicas on loopback).
///
/// It speaks Swift's native API through AsyncHTTPClient: tempauth's
/// `GET /auth/v1.0` gives a storage URL and a token (again after a 401),
/// the container is created on first use, and objects are
/// `PUT`/`GET`/`DELETE <storage URL>/<container>/<key>` with each key
/// segment percent-encoded. Every `PUT` carries the body's MD5 as `ETag`,
/// which the object servers check before they acknowledge, and every `GET`
/// is checked against the `ETag` it returns.
///
/// Connection failures and 5xx answers are tried again with jittered
/// exponential back-off (``SwiftStoreConfiguration/maxAttempts``): with
/// three replicas the proxy still answers when one storage node dies
/// mid-backup, and a retry covers the moment it takes to notice. Every
/// failure is a typed ``CloudStorageError`` that names the operation and the
/// key; nothing waits longer than ``SwiftStoreConfiguration/requestTimeout``
/// per attempt.
///
/// ```swift
/// let store = SwiftObjectStore(configuration: configuration)
/// try await store.put("7/ab/ab12….1", bytes)
/// let back = try await store.get("7/ab/ab12….1")
/// ```
public struct SwiftObjectStore: ChunkStore {
    public let configuration: SwiftStoreConfiguration
    private let client: HTTPClient
    private let session: SwiftAuthSession
    private let logger: Logger

    /// A store on `configuration`'s container. `client` defaults to one
    /// HTTP client shared by all Swift stores of the process (it is never
    /// shut down, as AsyncHTTPClient requires of a client that lives as
    /// long as the process).
    public init(configuration: SwiftStoreConfiguration, client: HTTPClient? = nil,
                logger: Logger = Logger(label: "sandbox.cloud.swift-store")) {
        self.configuration = configuration
        self.client = client ?? Self.sharedClient
        self.session = SwiftAuthSession(configuration: configuration, client: client ?? Self.sharedClient)
        self.logger = logger
    }

    /// Short connect timeouts (the cluster is near), enough connections for
    /// many concurrent uploads through one server process, and a failed
    /// connection reported at once: AsyncHTTPClient would otherwise retry
    /// it until the request's deadline, so a stopped proxy cost the whole
    /// ``SwiftStoreConfiguration/requestTimeout`` per attempt; the store's
    /// own retries (with back-off) decide instead.
    private static let sharedClient: HTTPClient = {
        var pool = HTTPClient.Configuration.ConnectionPool(idleTimeout: .seconds(60),
                                                           concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
        pool.retryConnectionEstablishment = false
        var http = HTTPClient.Configuration(timeout: .init(connect: .seconds(3)), connectionPool: pool)
        http.decompression = .disabled
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: http)
    }()

    public func put(_ key: String, _ bytes: [UInt8]) async throws(CloudStorageError) {
        var headers = HTTPHeaders()
        headers.add(name: "ETag", value: Self.md5(bytes))
        headers.add(name: "Content-Type", value: "application/octet-stream")
        _ = try await send(.PUT, objectPath(key), headers: headers, body: bytes, operation: "put \(key)")
    }

    public func get(_ key: String) async throws(CloudStorageError) -> [UInt8] {
        let operation = "get \(key)"
        let answer = try await send(.GET, objectPath(key), limit: configuration.maxObjectBytes, operation: operation)
        if let etag = answer.etag, etag != Self.md5(answer.body) {
            throw CloudStorageError(.protocolError, operation, "the object's MD5 is not its ETag \(etag)")
        }
        return answer.body
    }

    public func delete(_ key: String) async throws(CloudStorageError) {
        _ = try await send(.DELETE, objectPath(key), accepting: [404], operation: "delete \(key)")
    }

    public func keys(withPrefix prefix: String) async throws(CloudStorageError) -> [String] {
        let operation = "list \(configuration.container)/\(prefix)*"
        var keys: [String] = []
        var marker: String?
        // Until an empty page: the proxy may cap a page below the limit asked.
        while true {
            var query = "?format=json&limit=\(configuration.listingPageSize)&prefix=\(SwiftPath.encode(prefix))"
            if let marker { query += "&marker=\(SwiftPath.encode(marker))" }
            let answer = try await send(.GET, containerPath + query, accepting: [404], limit: 64 << 20, operation: operation)
            if answer.status == 404 { return keys }
            let page: [ListedObject]
            do {
                page = try JSONDecoder().decode([ListedObject].self, from: Data(answer.body))
            } catch {
                throw CloudStorageError(.protocolError, operation, "the listing is not the expected JSON: \(error)", underlying: error)
            }
            guard let last = page.last else { return keys }
            keys += page.map(\.name)
            marker = last.name
        }
    }

    // MARK: - Requests

    /// One entry of a JSON container listing (Swift sends more fields).
    private struct ListedObject: Decodable {
        var name: String
    }

    /// A response read whole.
    private struct Answer {
        var status: Int
        var body: [UInt8]
        var etag: String?
    }

    private var containerPath: String { "/" + SwiftPath.encode(configuration.container) }

    private func objectPath(_ key: String) -> String { containerPath + "/" + SwiftPath.encodeKey(key) }

    /// Sends one request to `path` under the storage URL and reads the
    /// answer, authenticating first when needed and once more after a 401,
    /// retrying connection failures and transient statuses. A 2xx status,
    /// or one in `accepting`, is returned; any other is thrown.
    private func send(_ method: HTTPMethod, _ path: String, headers: HTTPHeaders = [:], body: [UInt8]? = nil,
                      accepting: Set<Int> = [], limit: Int = 1 << 20,
                      operation: String) async throws(CloudStorageError) -> Answer {
        var attempt = 0
        var reauthenticated = false
        while true {
            attempt += 1
            let failure: CloudStorageError
            let transient: Bool
            do throws(CloudStorageError) {
                let credentials = try await session.credentials()
                let answer = try await exchange(method, credentials, path, headers, body, limit, operation)
                if answer.status == 401, !reauthenticated {
                    // The token expired or the proxy forgot it: one fresh
                    // token, without counting an attempt.
                    reauthenticated = true
                    attempt -= 1
                    await session.invalidate(credentials.token)
                    continue
                }
                if (200..<300).contains(answer.status) || accepting.contains(answer.status) { return answer }
                failure = SwiftStatus.error(answer.status, operation, "the proxy answered \(answer.status)"
                                                + Self.excerpt(answer.body))
                transient = SwiftStatus.isTransient(answer.status)
            } catch {
                failure = error
                transient = error.code == .unavailable
            }
            guard transient, attempt < configuration.maxAttempts, !Task.isCancelled else {
                throw CloudStorageError(failure.code, failure.operation,
                                        failure.detail + (attempt > 1 ? " (after \(attempt) attempts)" : ""))
            }
            let delay = configuration.backoff(afterAttempt: attempt)
            logger.debug("swift \(operation): \(failure.detail); attempt \(attempt + 1) in \(delay) s")
            do { try await Task.sleep(for: .milliseconds(Int(delay * 1000))) } catch {
                throw CloudStorageError(.unavailable, operation, "cancelled after \(attempt) attempts: \(failure.detail)")
            }
        }
    }

    /// One HTTP exchange; a failure to connect or to read is `unavailable`.
    private func exchange(_ method: HTTPMethod, _ credentials: SwiftAuthSession.Credentials, _ path: String,
                          _ headers: HTTPHeaders, _ body: [UInt8]?, _ limit: Int,
                          _ operation: String) async throws(CloudStorageError) -> Answer {
        var request = HTTPClientRequest(url: credentials.storageURL + path)
        request.method = method
        request.headers = headers
        request.headers.add(name: "X-Auth-Token", value: credentials.token)
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        do {
            let response = try await client.execute(request, timeout: configuration.requestTimeoutAmount, logger: logger)
            let collected = try await response.body.collect(upTo: limit)
            let etag = response.headers.first(name: "ETag").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            return Answer(status: Int(response.status.code), body: Array(collected.readableBytesView), etag: etag)
        } catch {
            throw CloudStorageError(.unavailable, operation, "\(method.rawValue) \(credentials.storageURL)\(path): \(error)",
                                    underlying: error)
        }
    }

    private static func md5(_ bytes: [UInt8]) -> String {
        Insecure.MD5.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    /// The start of an error body, for the error's detail.
    private static func excerpt(_ body: [UInt8]) -> String {
        let text = String(decoding: body.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "" : ": \(text)"
    }
}
