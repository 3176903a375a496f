import AsyncHTTPClient
import FileSystem

/// One HTTP client per set of connection settings, for the life of the
/// process. AsyncHTTPClient traps when a client is released without an
/// asynchronous shutdown; a process-wide client per setting (as
/// `HTTPClient.shared` is for the defaults) can never be, and its
/// connections are reused across downloaders.
///
/// A download whose host is a name gets a *pinned* client: one that
/// connects to the address the host policy checked (AsyncHTTPClient's
/// `dnsOverride`; TLS still verifies the name), never to whatever a second
/// lookup answers. Otherwise a name that resolves to a public address for
/// the check and to a private one for the connection (DNS rebinding) would
/// pass the policy. Pinned clients are leased: at most ``pinnedLimit`` are
/// kept, and one no download is using is shut down to make room.
enum SharedHTTPClients {
    struct Settings: Hashable {
        var connectMilliseconds: Int64
        var stallMilliseconds: Int64
        var connectionsPerHost: Int
    }

    /// A host name and the one address its connections go to.
    struct Pin: Hashable {
        var host: String
        var address: String
    }

    /// A pinned client in use by one attempt; give it back with ``release(_:)``.
    struct Lease: Sendable {
        let client: HTTPClient
        fileprivate let key: PinnedKey?
    }

    fileprivate struct PinnedKey: Hashable {
        var settings: Settings
        var pin: Pin
    }

    private struct Pinned {
        var client: HTTPClient
        var leases: Int
        var lastUsed: UInt64
    }

    private struct State {
        var clients: [Settings: HTTPClient] = [:]
        var pinned: [PinnedKey: Pinned] = [:]
        var tick: UInt64 = 0
    }

    /// Pinned clients kept at most (each holds an idle connection pool).
    static let pinnedLimit = 64

    private static let state = Locked(State())

    static func settings(of configuration: DownloaderConfiguration) -> Settings {
        Settings(connectMilliseconds: Int64(configuration.connectTimeout * 1000),
                 stallMilliseconds: Int64(configuration.stallTimeout * 1000),
                 connectionsPerHost: configuration.maxConnectionsPerHost)
    }

    static func client(for configuration: DownloaderConfiguration) -> HTTPClient {
        let settings = settings(of: configuration)
        return state.withLock { state in
            if let client = state.clients[settings] { return client }
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: Self.configuration(settings, pin: nil))
            state.clients[settings] = client
            return client
        }
    }

    /// A client for one attempt: the shared one when `pin` is nil (a literal
    /// address, checked as written), else one that connects `pin.host` to
    /// `pin.address` only.
    static func lease(for configuration: DownloaderConfiguration, pin: Pin?) -> Lease {
        guard let pin else { return Lease(client: client(for: configuration), key: nil) }
        let key = PinnedKey(settings: settings(of: configuration), pin: pin)
        let (client, evicted) = state.withLock { state -> (HTTPClient, HTTPClient?) in
            state.tick += 1
            if var entry = state.pinned[key] {
                entry.leases += 1
                entry.lastUsed = state.tick
                state.pinned[key] = entry
                return (entry.client, nil)
            }
            var evicted: HTTPClient?
            if state.pinned.count >= pinnedLimit,
               let idle = state.pinned.filter({ $0.value.leases == 0 }).min(by: { $0.value.lastUsed < $1.value.lastUsed }) {
                evicted = state.pinned.removeValue(forKey: idle.key)?.client
            }
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: Self.configuration(key.settings, pin: pin))
            state.pinned[key] = Pinned(client: client, leases: 1, lastUsed: state.tick)
            return (client, evicted)
        }
        if let evicted {
            // Nothing uses it (no lease): its shutdown only closes idle
            // connections, and its outcome is no one's to wait for.
            Task.detached { try? await evicted.shutdown() }
        }
        return Lease(client: client, key: key)
    }

    /// Gives back a lease from ``lease(for:pin:)``.
    static func release(_ lease: Lease) {
        guard let key = lease.key else { return }
        state.withLock { state in
            if var entry = state.pinned[key] {
                entry.leases = max(0, entry.leases - 1)
                state.pinned[key] = entry
            }
        }
    }

    private static func configuration(_ settings: Settings, pin: Pin?) -> HTTPClient.Configuration {
        var http = HTTPClient.Configuration(
            timeout: .init(connect: .milliseconds(settings.connectMilliseconds), read: .milliseconds(settings.stallMilliseconds)),
            connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: settings.connectionsPerHost))
        http.decompression = .disabled
        // Redirects are followed by the downloader, after its host
        // policy has checked the target (``HostPolicy``).
        http.redirectConfiguration = .disallow
        if let pin { http.dnsOverride = [pin.host: pin.address] }
        return http
    }
}
