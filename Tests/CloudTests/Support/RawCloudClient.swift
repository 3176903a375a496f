import AsyncHTTPClient
import CloudProtocol
import Foundation
import NIOCore
import NIOHTTP1

/// One answer of the service, read whole.
struct RawCloudResponse: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body decoded as `type`; a test failure naming the status and body when it is not.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        do { return try JSONDecoder().decode(type, from: Data(body)) } catch {
            throw RawCloudFailure("expected \(type) in a \(status) answer, got: \(text.prefix(300))")
        }
    }
}

struct RawCloudFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The service's HTTP API spoken directly (AsyncHTTPClient), without the
/// device-side client, so the tests see exactly what goes on the wire: any
/// bytes of 28 or more stand in for an encrypted chunk.
struct RawCloudClient: Sendable {
    /// `http://HOST:PORT`, without the trailing slash.
    let base: String

    init(baseURL: String) {
        base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
    }

    /// Idle connections are dropped before the server's 30-second idle
    /// timeout closes them (with `HTTPClient.shared`'s 60 s, a request after
    /// a 31 s pause met a reset). Process-wide, so it needs no shutdown.
    static let http: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.connectionPool.idleTimeout = .seconds(20)
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    /// Sends one request; `authorization` is the whole header value.
    func send(_ method: String, _ path: String, authorization: String? = nil, body: [UInt8]? = nil,
              contentType: String = "application/json") async throws -> RawCloudResponse {
        var request = HTTPClientRequest(url: base + path)
        request.method = HTTPMethod(rawValue: method)
        if let authorization { request.headers.add(name: "Authorization", value: authorization) }
        if let body {
            request.headers.add(name: "Content-Type", value: contentType)
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await Self.http.execute(request, timeout: .seconds(120))
        let bytes = try await response.body.collect(upTo: 8 << 20)
        return RawCloudResponse(status: Int(response.status.code), headers: response.headers, body: Array(bytes.readableBytesView))
    }

    /// Sends `value` as JSON with a device's (or the operator's) token.
    func send(_ method: String, _ path: String, token: String?, json value: some Encodable) async throws -> RawCloudResponse {
        try await send(method, path, authorization: token.map { "Bearer \($0)" }, body: Array(try JSONEncoder().encode(value)))
    }

    func send(_ method: String, _ path: String, token: String?) async throws -> RawCloudResponse {
        try await send(method, path, authorization: token.map { "Bearer \($0)" })
    }

    /// Sends and requires `status`, decoding the answer.
    func expect<T: Decodable>(_ status: Int, _ type: T.Type, _ response: RawCloudResponse) throws -> T {
        guard response.status == status else {
            throw RawCloudFailure("expected \(status), got \(response.status): \(response.text.prefix(300))")
        }
        return try response.decode(type)
    }
}

/// An account with one signed-in device, made through the API.
struct RawCloudDevice: Sendable {
    var account: String
    var authKey: String
    var deviceID: Int64
    var token: String

    /// Creates `account` (a random key) and signs device `udid` in.
    static func create(_ client: RawCloudClient, account: String, udid: String) async throws -> RawCloudDevice {
        let authKey = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        _ = try client.expect(201, AccountStatus.self, try await client.send(
            "POST", "/v1/accounts", token: nil, json: CreateAccountRequest(account: account, authKey: authKey)))
        let signedIn = try client.expect(201, SignInResponse.self, try await client.send(
            "POST", "/v1/devices", token: nil, json: SignInRequest(account: account, authKey: authKey, deviceName: "\(udid)'s iPhone", udid: udid)))
        return RawCloudDevice(account: account, authKey: authKey, deviceID: signedIn.deviceID, token: signedIn.token)
    }

    /// Opens a session.
    func openSession(_ client: RawCloudClient) async throws -> Int64 {
        try client.expect(201, SessionOpened.self, try await client.send("POST", "/v1/sessions", token: token)).sessionID
    }

    /// Stores `bytes` as a chunk with a random id in `session` and returns the id.
    func putChunk(_ client: RawCloudClient, session: Int64, bytes: [UInt8]) async throws -> ChunkID {
        let chunk = ChunkID(digest: (0..<32).map { _ in UInt8.random(in: 0...255) })
        _ = try client.expect(201, ChunkStored.self, try await client.send(
            "PUT", "/v1/sessions/\(session)/chunks/\(chunk.hex)", authorization: "Bearer \(token)", body: bytes,
            contentType: "application/octet-stream"))
        return chunk
    }

    /// Commits `session` with `manifest` as its only chunk.
    func commit(_ client: RawCloudClient, session: Int64, manifest: ChunkID, bytes: Int64) async throws -> SnapshotSummary {
        try client.expect(201, SnapshotSummary.self, try await client.send(
            "POST", "/v1/sessions/\(session)/commit", token: token, json: CommitRequest(manifest: manifest, chunks: [manifest], files: 1, bytes: bytes)))
    }
}
