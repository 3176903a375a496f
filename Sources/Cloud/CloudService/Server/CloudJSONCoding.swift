import Foundation
import Hummingbird
import NIOCore
import NIOPosix

/// The service's JSON decoding of request bodies, with a large body decoded
/// on NIO's thread pool.
///
/// A commit or a known-chunks request naming 100,000 chunks is 6 to 7 MB
/// of JSON; decoding it takes a cooperative thread for a good part of a
/// second, and this machine's pool has one thread a core. Eight such
/// requests of one account then held every other account's token check
/// behind them for seconds (issue 29, finding 5). Off the pool, they take
/// their turn on the thread pool while short requests go on.
public struct CloudJSONDecoder: RequestDecoder {
    /// Bodies up to this size are decoded where the request runs.
    static let inlineLimit = 64 << 10

    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        guard buffer.readableBytes > Self.inlineLimit else { return try JSONDecoder().decode(T.self, from: buffer) }
        // Erased before it crosses: the closure that runs on the pool
        // thread then holds no metadata of `T`, a type Swift cannot prove
        // sendable (its conformance might be isolated).
        let job: any DecodeWork = DecodeJob<T>(buffer: buffer)
        let decoded = try await OffThePool.run { try job.decode() }
        guard let value = decoded as? T else {
            throw HTTPError(.internalServerError, message: "a body decoded as another type than asked")
        }
        return value
    }
}

/// A body to decode, its type erased (see ``CloudJSONDecoder``).
private protocol DecodeWork: Sendable {
    func decode() throws -> Any
}

/// One body to decode as `T`.
private struct DecodeJob<T: Decodable>: DecodeWork {
    let buffer: ByteBuffer

    func decode() throws -> Any { try JSONDecoder().decode(T.self, from: buffer) }
}

/// Work too long for a cooperative thread, run on NIO's thread pool.
enum OffThePool {
    /// Runs `work` on `NIOThreadPool.singleton` and returns its result.
    ///
    /// The value crosses threads once, from the pool thread that made it to
    /// the task that waits; nothing else holds it, which is why the box may
    /// be unchecked.
    static func run<T>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let box = try await NIOThreadPool.singleton.runIfActive { UncheckedBox(value: try work()) }
        return box.value
    }

    private struct UncheckedBox<Value>: @unchecked Sendable {
        let value: Value
    }
}

/// A JSON response encoded off the pool, for a body that can be megabytes
/// (100,000 missing chunk ids).
struct LargeJSONResponse<Value: Encodable & Sendable>: ResponseGenerator {
    let response: Response

    init(_ value: Value, status: HTTPResponse.Status = .ok) async throws {
        let data = try await OffThePool.run { try JSONEncoder().encode(value) }
        response = Response(status: status,
                            headers: [.contentType: "application/json; charset=utf-8", .contentLength: String(data.count)],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    func response(from request: Request, context: some RequestContext) throws -> Response { response }
}
