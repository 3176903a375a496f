import AsyncHTTPClient
import FileSystem

/// One HTTP client per set of connection settings, for the life of the
/// process. AsyncHTTPClient traps when a client is released without an
/// asynchronous shutdown; a process-wide client per setting (as
/// `HTTPClient.shared` is for the defaults) can never be, and its
/// connections are reused across downloaders.
enum SharedHTTPClients {
    struct Settings: Hashable {
        var connectMilliseconds: Int64
        var stallMilliseconds: Int64
        var connectionsPerHost: Int
    }

    private static let clients = Locked<[Settings: HTTPClient]>([:])

    static func client(for configuration: DownloaderConfiguration) -> HTTPClient {
        let settings = Settings(connectMilliseconds: Int64(configuration.connectTimeout * 1000),
                                stallMilliseconds: Int64(configuration.stallTimeout * 1000),
                                connectionsPerHost: configuration.maxConnectionsPerHost)
        return clients.withLock { clients in
            if let client = clients[settings] { return client }
            var http = HTTPClient.Configuration(
                timeout: .init(connect: .milliseconds(settings.connectMilliseconds), read: .milliseconds(settings.stallMilliseconds)),
                connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: settings.connectionsPerHost))
            http.decompression = .disabled
            // Redirects are followed by the downloader, after its host
            // policy has checked the target (``HostPolicy``).
            http.redirectConfiguration = .disallow
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: http)
            clients[settings] = client
            return client
        }
    }
}
