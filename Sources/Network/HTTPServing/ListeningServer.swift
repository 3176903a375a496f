import CodedErrors
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// A Hummingbird application running in a task, known to be listening.
///
/// The content server and the iCloud backup service start the same way:
/// run the application in a task and wait for the port it bound, so that a
/// caller that asked for port 0 learns the port, and a server that cannot
/// bind is an error rather than a hang.
///
/// ```swift
/// let server = try await ListeningServer.start(router, host: "127.0.0.1", port: 0,
///                                              serverName: "example", logger: logger)
/// print(server.port)
/// server.task.cancel()
/// ```
public struct ListeningServer: Sendable {
    /// The port it listens on (the one the system chose, when started with 0).
    public let port: Int
    /// The task running the application; cancelling it stops the server.
    public let task: Task<Void, any Error>

    /// Runs `router` on `host`:`port` (0 for any free port) in a new task
    /// and returns once the server listens.
    ///
    /// - Parameter server: the HTTP server (HTTP/1.1 with Hummingbird's
    ///   defaults unless given: an idle timeout, extra channel handlers).
    /// - Throws: ``ListeningServerError`` when the application ends before
    ///   it listens (the address is taken, say).
    public static func start<Router: HTTPResponderBuilder>(
        _ router: Router, host: String, port: Int, serverName: String, server: HTTPServerBuilder = .http1(), logger: Logger
    ) async throws(ListeningServerError) -> ListeningServer
    where Router.Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname(host, port: port), serverName: serverName),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? port)
                continuation.finish()
            },
            logger: logger)
        let task = Task { try await app.run() }
        var iterator = ports.makeAsyncIterator()
        guard let bound = await iterator.next() else {
            task.cancel()
            throw ListeningServerError(host: host, port: port, outcome: await task.result)
        }
        return ListeningServer(port: bound, task: task)
    }
}

/// A server that ended before it listened: where it was to listen, and how
/// its task ended.
public struct ListeningServerError: Error {
    /// The address asked for.
    public var host: String
    /// The port asked for.
    public var port: Int
    /// What the application's task ended with.
    public var outcome: Result<Void, any Error>
}

extension ListeningServerError: CausedError {
    /// The error the application's task ended with, if it failed.
    public var underlying: (any Error)? {
        if case .failure(let error) = outcome { return error }
        return nil
    }
}
