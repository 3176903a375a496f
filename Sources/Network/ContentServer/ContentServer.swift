import Foundation
import HTTPServing
import Hummingbird
import Logging
import NIOCore

/// A content server on loopback: the files of a directory over HTTP/1.1
/// (Hummingbird's file middleware, which answers `ETag`, `Range` and
/// `If-Range`), with faults injected on request.
///
/// Control endpoints, for tests and benchmarks:
/// - `POST /_control/faults` with a JSON array of ``ContentFault``;
/// - `GET /_control/stats` answers ``ContentServerStats`` as JSON;
/// - `POST /_control/reset` forgets faults and statistics;
/// - `POST /_echo` answers its body (a non-idempotent request to test).
///
/// ```swift
/// let server = try await ContentServer.start(serving: "/srv/maps")
/// print(server.baseURL)   // http://127.0.0.1:PORT/
/// await server.stop()
/// ```
public final class ContentServer: Sendable {
    /// The address it listens on.
    public let host: String
    /// The port it listens on (chosen by the system when started with 0).
    public let port: Int
    private let task: Task<Void, any Error>
    private let book: FaultBook

    /// `http://HOST:PORT/`.
    public var baseURL: URL { URL(string: "http://\(host):\(port)/")! }

    private init(host: String, port: Int, task: Task<Void, any Error>, book: FaultBook) {
        self.host = host
        self.port = port
        self.task = task
        self.book = book
    }

    /// Starts serving `root` on `host`:`port` (0 for any free port) and
    /// returns once it listens.
    public static func start(serving root: String, host: String = "127.0.0.1", port: Int = 0,
                             logLevel: Logger.Level = .critical) async throws -> ContentServer {
        let book = FaultBook()
        var logger = Logger(label: "content-server")
        logger.logLevel = logLevel
        let router = Router()
        router.add(middleware: FaultMiddleware(book: book))
        router.add(middleware: UnsatisfiableRangeMiddleware())
        router.add(middleware: FileMiddleware(root, logger: logger))
        addControlRoutes(to: router, book: book)

        do throws(ListeningServerError) {
            let server = try await ListeningServer.start(router, host: host, port: port, serverName: "sandbox-content-server", logger: logger)
            return ContentServer(host: host, port: server.port, task: server.task, book: book)
        } catch {
            throw ContentServerError(message: "the server stopped before it listened on \(host):\(port): \(error.outcome)")
        }
    }

    /// Adds faults for the next requests.
    public func inject(_ faults: [ContentFault]) { book.add(faults) }

    /// What the server has answered so far.
    public var stats: ContentServerStats { book.stats }

    /// Stops listening and waits for the server to end.
    public func stop() async {
        task.cancel()
        _ = await task.result
    }

    private static func addControlRoutes(to router: Router<BasicRequestContext>, book: FaultBook) {
        router.post("/_control/faults") { request, context -> HTTPResponse.Status in
            let faults = try await request.decode(as: [ContentFault].self, context: context)
            book.add(faults)
            return .noContent
        }
        router.get("/_control/stats") { _, _ -> Response in
            let data = try JSONEncoder().encode(book.stats)
            return Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        }
        router.post("/_control/reset") { _, _ -> HTTPResponse.Status in
            book.reset()
            return .noContent
        }
        router.post("/_echo") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 16 << 20)
            return Response(status: .ok, body: ResponseBody(byteBuffer: body))
        }
    }
}

/// The content server could not start.
public struct ContentServerError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
