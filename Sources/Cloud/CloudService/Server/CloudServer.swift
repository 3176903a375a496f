import Foundation
import HTTPServing
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// The service on HTTP (Hummingbird), with garbage collection every
/// ``gcInterval`` seconds in the background.
///
/// ```swift
/// let service = try await CloudService.open(.embedded(directory: dir), adminToken: nil)
/// let server = try await CloudServer.start(service)
/// print(server.baseURL)   // http://127.0.0.1:PORT/
/// await server.stop()
/// ```
public final class CloudServer: Sendable {
    public let host: String
    public let port: Int
    public let service: CloudService
    private let task: Task<Void, any Error>
    private let collector: Task<Void, Never>

    /// `http://HOST:PORT/`.
    public var baseURL: String { "http://\(host):\(port)/" }

    private init(host: String, port: Int, service: CloudService, task: Task<Void, any Error>, collector: Task<Void, Never>) {
        self.host = host
        self.port = port
        self.service = service
        self.task = task
        self.collector = collector
    }

    /// Starts serving on `host`:`port` (0 for a free port) and returns once it listens.
    ///
    /// - Parameters:
    ///   - gcInterval: seconds between garbage collections; nil runs them
    ///     only on `POST /v1/admin/gc`.
    ///   - limits: the connection cap and idle timeout.
    public static func start(_ service: CloudService, host: String = "127.0.0.1", port: Int = 0,
                             gcInterval: Double? = 300, limits: ConnectionLimits = ConnectionLimits()) async throws -> CloudServer {
        let router = Router(context: CloudRequestContext.self)
        router.add(middleware: ErrorBodyMiddleware())
        CloudRoutes.add(to: router, service: service)
        let server: ListeningServer
        do throws(ListeningServerError) {
            let connections = ConnectionCount(maximum: limits.maximumConnections)
            let http = HTTPServerBuilder.http1(configuration: .init(additionalChannelHandlers: [ConnectionGuard(connections, logger: service.logger)],
                                                                    idleTimeout: limits.idleTimeout))
            server = try await ListeningServer.start(router, host: host, port: port, serverName: "sandbox-cloud", server: http,
                                                     logger: service.logger)
        } catch {
            throw CloudServiceError(.unavailable, "the server stopped before it listened on \(host):\(port): \(error.outcome)")
        }
        let collector = Task {
            guard let gcInterval else { return }
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(gcInterval * 1e9))
                if Task.isCancelled { break }
                do { _ = try await service.collectGarbage() } catch {
                    service.logger.warning("garbage collection failed", metadata: ["error": "\(error)"])
                }
            }
        }
        return CloudServer(host: host, port: server.port, service: service, task: server.task, collector: collector)
    }

    /// Waits until the server ends (a signal or ``stop()``).
    public func wait() async throws {
        try await task.value
    }

    /// Stops listening and waits for the server to end.
    public func stop() async {
        collector.cancel()
        task.cancel()
        _ = await task.result
        _ = await collector.result
    }
}
