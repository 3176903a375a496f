import AsyncHTTPClient
import CloudProtocol
import Foundation
import NIOCore
import NIOHTTP1

/// The service's API from the device, on AsyncHTTPClient.
///
/// Idempotent requests (every `GET`, `known`, a chunk `PUT`) are retried
/// with backoff when the connection fails or the service answers 503, so a
/// server process restarting mid-backup costs a pause, not the backup.
public struct CloudClient: Sendable {
    /// The service, `http://host:port/`.
    public let baseURL: String
    /// The device token, once signed in.
    public var token: String?
    let http: HTTPClient
    /// Attempts for an idempotent request.
    public var attempts = 6

    /// A client on an HTTP client (by default ``processClient``).
    public init(baseURL: String, token: String? = nil, http: HTTPClient = CloudClient.processClient) {
        self.baseURL = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        self.token = token
        self.http = http
    }

    public func createAccount(_ request: CreateAccountRequest) async throws(CloudBackupError) -> AccountStatus {
        try await send(.POST, "v1/accounts", json: request, idempotent: false)
    }

    public func signIn(_ request: SignInRequest) async throws(CloudBackupError) -> SignInResponse {
        try await send(.POST, "v1/devices", json: request, idempotent: false)
    }

    public func account() async throws(CloudBackupError) -> AccountStatus {
        try await send(.GET, "v1/account")
    }

    public func appsOff(device: Int64) async throws(CloudBackupError) -> [String] {
        let toggles: AppToggles = try await send(.GET, "v1/devices/\(device)/apps")
        return toggles.appsOff
    }

    public func setApp(_ bundleID: String, enabled: Bool, device: Int64) async throws(CloudBackupError) -> [String] {
        guard let escaped = bundleID.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) else {
            throw CloudBackupError(.badInput, "cannot encode the bundle id \(bundleID)")
        }
        let toggles: AppToggles = try await send(.PUT, "v1/devices/\(device)/apps/\(escaped)", json: AppToggle(enabled: enabled))
        return toggles.appsOff
    }

    public func openSession() async throws(CloudBackupError) -> SessionOpened {
        try await send(.POST, "v1/sessions", json: Optional<String>.none, idempotent: false)
    }

    public func known(_ chunks: [ChunkID], session: Int64) async throws(CloudBackupError) -> [ChunkID] {
        let answer: KnownChunksResponse = try await send(.POST, "v1/sessions/\(session)/known", json: KnownChunksRequest(chunks: chunks))
        return answer.missing
    }

    public func upload(_ sealed: [UInt8], id: ChunkID, session: Int64) async throws(CloudBackupError) -> ChunkStored {
        try await send(.PUT, "v1/sessions/\(session)/chunks/\(id.hex)", body: ByteBuffer(bytes: sealed), contentType: "application/octet-stream")
    }

    public func commit(_ request: CommitRequest, session: Int64) async throws(CloudBackupError) -> SnapshotSummary {
        try await send(.POST, "v1/sessions/\(session)/commit", json: request, idempotent: false)
    }

    public func abandon(session: Int64) async throws(CloudBackupError) {
        let _: Empty = try await send(.DELETE, "v1/sessions/\(session)", idempotent: false)
    }

    public func snapshots(device: Int64? = nil) async throws(CloudBackupError) -> [SnapshotSummary] {
        let list: SnapshotList = try await send(.GET, "v1/snapshots" + (device.map { "?device=\($0)" } ?? ""))
        return list.snapshots
    }

    public func snapshot(_ id: Int64) async throws(CloudBackupError) -> SnapshotDetail {
        try await send(.GET, "v1/snapshots/\(id)")
    }

    public func chunk(_ id: ChunkID) async throws(CloudBackupError) -> [UInt8] {
        try await sendRaw(.GET, "v1/chunks/\(id.hex)", body: nil, contentType: nil, idempotent: true)
    }

    /// The process's HTTP client for the service: a connection that cannot
    /// be made fails at once (after a 5-second connect timeout), so this
    /// client's own retries, with backoff, decide how long a device waits
    /// for a server that is down; AsyncHTTPClient's default would retry
    /// connecting until each request's deadline. A data read that stalls
    /// for 60 seconds fails too. Process-wide, so it never needs a shutdown.
    public static let processClient: HTTPClient = {
        var configuration = HTTPClient.Configuration(timeout: .init(connect: .seconds(5), read: .seconds(60)))
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 16
        // Idle connections go before the service's 30-second idle timeout
        // closes them: a request sent on a connection the server is closing
        // meets a reset ("Connection reset by peer" after a 31 s pause).
        configuration.connectionPool.idleTimeout = .seconds(20)
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    // MARK: Transport

    struct Empty: Decodable {}

    func send<Answer: Decodable>(_ method: HTTPMethod, _ path: String, json: some Encodable,
                                 idempotent: Bool = true) async throws(CloudBackupError) -> Answer {
        let body: ByteBuffer
        do { body = ByteBuffer(bytes: try JSONEncoder().encode(json)) } catch {
            throw CloudBackupError(.badInput, "cannot encode the request").caused(by: error)
        }
        return try await send(method, path, body: body, contentType: "application/json", idempotent: idempotent)
    }

    func send<Answer: Decodable>(_ method: HTTPMethod, _ path: String, body: ByteBuffer? = nil, contentType: String? = nil,
                                 idempotent: Bool = true) async throws(CloudBackupError) -> Answer {
        let bytes = try await sendRaw(method, path, body: body, contentType: contentType, idempotent: idempotent)
        if Answer.self == Empty.self, let empty = Empty() as? Answer { return empty }
        do { return try JSONDecoder().decode(Answer.self, from: Data(bytes)) } catch {
            throw CloudBackupError(.service, "\(method) /\(path): the service answered something unexpected").caused(by: error)
        }
    }

    func sendRaw(_ method: HTTPMethod, _ path: String, body: ByteBuffer?, contentType: String?,
                 idempotent: Bool) async throws(CloudBackupError) -> [UInt8] {
        var delay = 0.2
        var attempt = 1
        while true {
            do {
                return try await once(method, path, body: body, contentType: contentType)
            } catch where idempotent && attempt < attempts && (error.code == .network || error.status == 503) {
                try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
                delay = min(delay * 2, 3)
                attempt += 1
            }
        }
    }

    private func once(_ method: HTTPMethod, _ path: String, body: ByteBuffer?, contentType: String?) async throws(CloudBackupError) -> [UInt8] {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
        if let body { request.body = .bytes(body) }
        let response: HTTPClientResponse
        let bytes: ByteBuffer
        do {
            response = try await http.execute(request, timeout: .seconds(120))
            bytes = try await response.body.collect(upTo: CloudLimits.maximumChunkBytes * 8)
        } catch {
            throw CloudBackupError(.network, "\(method) \(baseURL)\(path) failed").caused(by: error)
        }
        let data = Array(bytes.readableBytesView)
        guard (200..<300).contains(Int(response.status.code)) else {
            let answer = try? JSONDecoder().decode(ServiceErrorBody.self, from: Data(data))
            let status = Int(response.status.code)
            let code: CloudBackupError.Code = switch (status, answer?.code) {
            case (401, _): .unauthorized
            case (_, "quotaExceeded"): .quotaExceeded
            case (503, _): .network
            default: .service
            }
            throw CloudBackupError(code, answer?.message ?? "\(method) /\(path): HTTP \(status)", serviceError: answer, status: status)
        }
        return data
    }
}
