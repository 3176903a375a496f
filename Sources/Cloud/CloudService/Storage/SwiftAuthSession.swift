import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// The token and storage URL tempauth handed out, shared by every request of
/// one ``SwiftObjectStore``.
///
/// Many requests that find no token at once authenticate once: the first
/// starts the exchange, the others wait for it. A token the proxy rejects
/// (401: expired, or the proxy restarted with a new memcached) is dropped
/// with ``invalidate(_:)`` and the next request authenticates again.
actor SwiftAuthSession {
    /// What authentication yields.
    struct Credentials: Sendable, Equatable {
        /// `X-Storage-Url`: `http://host:port/v1/AUTH_account`.
        var storageURL: String
        /// `X-Auth-Token`.
        var token: String
    }

    private let configuration: SwiftStoreConfiguration
    private let client: HTTPClient
    private var current: Credentials?
    private var pending: Task<Result<Credentials, CloudStorageError>, Never>?

    init(configuration: SwiftStoreConfiguration, client: HTTPClient) {
        self.configuration = configuration
        self.client = client
    }

    /// The current credentials, authenticating first when there are none.
    /// One attempt: the caller's retry loop decides whether to try again.
    func credentials() async throws(CloudStorageError) -> Credentials {
        if let current { return current }
        if let pending { return try await pending.value.get() }
        let task = Task { [configuration, client] in await Self.authenticate(configuration, client) }
        pending = task
        let result = await task.value
        pending = nil
        if case .success(let credentials) = result { current = credentials }
        return try result.get()
    }

    /// Forgets `token` if it is still the current one (a request that was
    /// refused with an older token must not drop a newer one).
    func invalidate(_ token: String) {
        if current?.token == token { current = nil }
    }

    /// `GET /auth/v1.0` with the user and key, then `PUT` the container
    /// (201 created, 202 already there), so every later request finds it.
    private static func authenticate(_ configuration: SwiftStoreConfiguration,
                                     _ client: HTTPClient) async -> Result<Credentials, CloudStorageError> {
        let operation = "authenticate \(configuration.user) at \(configuration.authURL)"
        var request = HTTPClientRequest(url: configuration.authURL)
        request.headers.add(name: "X-Auth-User", value: configuration.user)
        request.headers.add(name: "X-Auth-Key", value: configuration.key)
        let headers: HTTPHeaders
        switch await send(request, operation, configuration, client) {
        case .failure(let error): return .failure(error)
        case .success(let answer): headers = answer
        }
        guard let storageURL = headers.first(name: "X-Storage-Url"),
              let token = headers.first(name: "X-Auth-Token") ?? headers.first(name: "X-Storage-Token")
        else {
            return .failure(CloudStorageError(.protocolError, operation, "no X-Storage-Url or X-Auth-Token in the answer"))
        }
        let credentials = Credentials(storageURL: storageURL, token: token)

        var create = HTTPClientRequest(url: storageURL + "/" + SwiftPath.encode(configuration.container))
        create.method = .PUT
        create.headers.add(name: "X-Auth-Token", value: token)
        create.headers.add(name: "Content-Length", value: "0")
        return await send(create, "create container \(configuration.container)", configuration, client).map { _ in credentials }
    }

    /// One exchange whose body does not matter: the headers of a 2xx
    /// answer, or the typed error.
    private static func send(_ request: HTTPClientRequest, _ operation: String, _ configuration: SwiftStoreConfiguration,
                             _ client: HTTPClient) async -> Result<HTTPHeaders, CloudStorageError> {
        do {
            let response = try await client.execute(request, timeout: configuration.requestTimeoutAmount)
            _ = try? await response.body.collect(upTo: 64 << 10)
            let status = Int(response.status.code)
            guard (200..<300).contains(status) else {
                return .failure(SwiftStatus.error(status, operation, "\(request.method.rawValue) \(request.url) answered \(status)"))
            }
            return .success(response.headers)
        } catch {
            return .failure(CloudStorageError(.unavailable, operation, "\(error)", underlying: error))
        }
    }
}

extension SwiftStoreConfiguration {
    var requestTimeoutAmount: TimeAmount { .milliseconds(Int64(max(requestTimeout, 0.001) * 1000)) }
}
