import CloudProtocol
import Foundation
import Hummingbird
import NIOCore
import NIOHTTPTypes
import Synchronization

/// How many connections the server holds, and how long a silent one lives.
public struct ConnectionLimits: Sendable, Hashable {
    /// Connections served at once; one more is closed as it arrives, so
    /// half-sent requests cannot take every descriptor.
    public var maximumConnections: Int
    /// A connection that sends nothing for this long is closed: a request
    /// head or body left half-sent, or an idle keep-alive. (Hummingbird's
    /// idle timeout, which a request still arriving does not reset.)
    public var idleTimeout: TimeAmount

    public init(maximumConnections: Int = 512, idleTimeout: TimeAmount = .seconds(30)) {
        self.maximumConnections = maximumConnections
        self.idleTimeout = idleTimeout
    }
}

/// The connections a server holds, shared by every connection's guard.
final class ConnectionCount: Sendable {
    private let count = Mutex(0)
    let maximum: Int

    init(maximum: Int) { self.maximum = maximum }

    /// Takes a place; false when every place is taken (nothing taken then).
    func enter() -> Bool {
        count.withLock { count in
            guard count < maximum else { return false }
            count += 1
            return true
        }
    }

    func leave() { count.withLock { $0 -= 1 } }

    var current: Int { count.withLock { $0 } }
}

/// Each connection's guard, between HTTP decoding and Hummingbird's
/// request handling:
/// - it holds a place in ``ConnectionCount`` for the connection's life and
///   closes a connection that finds none;
/// - it answers 413 and closes the connection, without reading the body,
///   when a request's `Content-Length` passes what its route takes, and as
///   soon as a chunked body passes it; when the route already answered
///   (a 401 before the body), it only closes. Hummingbird would otherwise
///   read the rest of a refused body, to the end, to keep the connection.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let connections: ConnectionCount
    private var counted = false
    /// The body limit of the request being read, and what arrived of it.
    private var limit = 0
    private var received = 0
    /// True once the request being read was answered.
    private var answered = false
    /// True once a 413 is sent: nothing more is read or passed on.
    private var refused = false

    init(_ connections: ConnectionCount) { self.connections = connections }

    func handlerAdded(context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        take(context)
    }

    func channelActive(context: ChannelHandlerContext) {
        take(context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if counted {
            counted = false
            connections.leave()
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        handlerRemoved(context: context)
        context.fireChannelInactive()
    }

    private func take(_ context: ChannelHandlerContext) {
        guard !counted else { return }
        if connections.enter() {
            counted = true
        } else {
            refused = true
            context.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        let part = unwrapInboundIn(data)
        switch part {
        case .head(let head):
            limit = Self.bodyLimit(head)
            received = 0
            answered = false
            if let length = head.headerFields[.contentLength].flatMap({ Int($0) }), length > limit {
                return refuse(context, "the body has \(length) bytes; this route takes at most \(limit)")
            }
        case .body(let buffer):
            received += buffer.readableBytes
            if received > limit {
                guard !answered else {
                    refused = true
                    return context.close(promise: nil)
                }
                return refuse(context, "the body passed \(limit) bytes, the most this route takes")
            }
        case .end:
            break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .head = unwrapOutboundIn(data) { answered = true }
        context.write(data, promise: promise)
    }

    /// Answers 413 in the API's error shape and closes the connection.
    private func refuse(_ context: ChannelHandlerContext, _ message: String) {
        refused = true
        let body = (try? JSONEncoder().encode(CloudServiceError(.tooLarge, message).body)) ?? Data()
        let head = HTTPResponse(status: .contentTooLarge, headerFields: [
            .contentType: "application/json", .contentLength: "\(body.count)", .connection: "close",
        ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(ByteBuffer(bytes: body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    /// The largest body `head`'s route takes: a chunk for a chunk upload,
    /// the largest JSON request (a commit naming 100,000 chunks) otherwise.
    static func bodyLimit(_ head: HTTPRequest) -> Int {
        let path = head.path ?? ""
        if head.method == .put, path.hasPrefix("/v1/sessions/"), path.contains("/chunks/") { return CloudLimits.maximumChunkBytes }
        return CloudRequestContext.maximumJSONBody
    }
}
