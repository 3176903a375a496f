import CloudProtocol
import FileSystem
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTPTypes

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
    private let count = Locked(0)
    let maximum: Int

    init(maximum: Int) { self.maximum = maximum }

    /// Takes a place and returns how many are held with it; nil when every
    /// place is taken (nothing taken then).
    func enter() -> Int? {
        count.withLock { count in
            guard count < maximum else { return nil }
            count += 1
            return count
        }
    }

    /// Gives a place back; returns how many are held after.
    @discardableResult
    func leave() -> Int { count.withLock { $0 -= 1; return $0 } }
}

/// Each connection's guard, between HTTP decoding and Hummingbird's
/// request handling:
/// - it holds a place in ``ConnectionCount`` for the connection's life and
///   closes a connection that finds none;
/// - it answers 413 and closes the connection when a request's body passes
///   what its route takes. Hummingbird would otherwise read the rest of a
///   refused body, to the end, to keep the connection.
///
/// When the 413 goes out:
/// - a `Content-Length` far past the limit (more than ``overrunReadFirst``
///   over it) is answered at once, before one byte of the body is read;
/// - a modest overrun is read and dropped first, then answered: a client
///   that sends its whole body before it reads (AsyncHTTPClient does) lost
///   an early answer to the close that followed it ("I/O on closed
///   channel");
/// - a chunked body is answered as soon as it passes the limit;
/// - a body that passes the limit after the route already answered (a 401
///   before the body) ends the connection once that answer is written.
///
/// After an early answer the connection lingers, as nginx's does: what
/// still arrives is read and dropped for up to ``lingeringTime`` or
/// ``lingeringBytes``, because closing a socket with unread bytes sends a
/// reset that can destroy the answer before the client reads it.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// A body at most this far past its limit is read (and dropped) before the 413.
    static let overrunReadFirst = 4 << 20
    /// How long, and how much, a refused connection is read before it closes.
    static let lingeringTime = TimeAmount.seconds(2)
    static let lingeringBytes = 8 << 20

    /// Where the request being read stands.
    private enum State {
        /// Passing the request on; `limit` is its route's, `received` what came of its body.
        case passing(limit: Int, received: Int)
        /// Dropping a modest overrun; the 413 goes out at its end.
        case readingBeforeRefusal(message: String)
        /// A body passed its limit while the route's answer was being
        /// written; the connection ends once the answer is whole.
        case closingAfterAnswer
        /// Refused: what arrives is dropped, counted in `dropped`, until the connection closes.
        case refused(dropped: Int)
    }

    private let connections: ConnectionCount
    /// Debug lines for each place taken, refused and given back, and each
    /// early answer: what a test prints when a connection outlives the cap.
    private let logger: Logger
    private var counted = false
    private var state = State.passing(limit: 0, received: 0)
    /// True once the current request's answer began, and once it was written whole.
    private var answered = false
    private var answerEnded = false

    init(_ connections: ConnectionCount, logger: Logger) {
        self.connections = connections
        self.logger = logger
    }

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
            let held = connections.leave()
            logger.debug("connection left", metadata: ["peer": "\(context.channel.remoteAddress.map { "\($0)" } ?? "?")", "held": "\(held)"])
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        handlerRemoved(context: context)
        context.fireChannelInactive()
    }

    private func take(_ context: ChannelHandlerContext) {
        guard !counted else { return }
        let peer = context.channel.remoteAddress.map { "\($0)" } ?? "?"
        if let held = connections.enter() {
            counted = true
            logger.debug("connection counted", metadata: ["peer": "\(peer)", "held": "\(held)"])
        } else {
            state = .refused(dropped: 0)
            logger.debug("connection over the cap closed", metadata: ["peer": "\(peer)", "held": "\(connections.maximum)"])
            context.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch (state, part) {
        case (.refused(let dropped), .body(let buffer)):
            state = .refused(dropped: dropped + buffer.readableBytes)
            if dropped + buffer.readableBytes > Self.lingeringBytes { context.close(promise: nil) }
        case (.refused, _):
            // The refused body's end, or a next request on a connection that is closing.
            context.close(promise: nil)
        case (.readingBeforeRefusal(let message), .end):
            refuse(context, message)
        case (.readingBeforeRefusal, _), (.closingAfterAnswer, _):
            break
        case (.passing, .head(let head)):
            let limit = Self.bodyLimit(head)
            state = .passing(limit: limit, received: 0)
            answered = false
            answerEnded = false
            if let length = head.headerFields[.contentLength].flatMap({ Int($0) }), length > limit {
                let message = "the body has \(length) bytes; this route takes at most \(limit)"
                if length - limit <= Self.overrunReadFirst {
                    state = .readingBeforeRefusal(message: message)
                    return
                }
                return refuse(context, message)
            }
            context.fireChannelRead(data)
        case (.passing(let limit, let received), .body(let buffer)):
            let total = received + buffer.readableBytes
            state = .passing(limit: limit, received: total)
            guard total > limit else { return context.fireChannelRead(data) }
            guard answered else { return refuse(context, "the body passed \(limit) bytes, the most this route takes") }
            // The route's answer goes out whole; then the connection closes.
            if answerEnded {
                state = .refused(dropped: 0)
                linger(context)
            } else {
                state = .closingAfterAnswer
            }
        case (.passing, .end):
            context.fireChannelRead(data)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head: answered = true
        case .body: break
        case .end:
            answerEnded = true
            if case .closingAfterAnswer = state {
                state = .refused(dropped: 0)
                let written = promise ?? context.eventLoop.makePromise()
                context.write(data, promise: written)
                written.futureResult.assumeIsolated().whenComplete { _ in self.linger(context) }
                return
            }
        }
        context.write(data, promise: promise)
    }

    /// Answers 413 in the API's error shape, then lingers and closes.
    private func refuse(_ context: ChannelHandlerContext, _ message: String) {
        state = .refused(dropped: 0)
        logger.debug("413 before the body was read", metadata: ["reason": "\(message)"])
        let body = (try? JSONEncoder().encode(CloudServiceError(.tooLarge, message).body)) ?? Data()
        let head = HTTPResponse(status: .contentTooLarge, headerFields: [
            .contentType: "application/json", .contentLength: "\(body.count)", .connection: "close",
        ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(ByteBuffer(bytes: body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in self.linger(context) }
    }

    /// Closes the connection after ``lingeringTime`` at the latest (sooner
    /// when the refused body ends or passes ``lingeringBytes``).
    private func linger(_ context: ChannelHandlerContext) {
        context.flush()
        context.eventLoop.assumeIsolated().scheduleTask(in: Self.lingeringTime) {
            self.logger.debug("lingering connection closed", metadata: ["active": "\(context.channel.isActive)"])
            context.close(promise: nil)
        }
    }

    /// The largest body `head`'s route takes: a chunk for a chunk upload,
    /// the largest JSON request (a commit naming 100,000 chunks) otherwise.
    static func bodyLimit(_ head: HTTPRequest) -> Int {
        let path = head.path ?? ""
        if head.method == .put, path.hasPrefix("/v1/sessions/"), path.contains("/chunks/") { return CloudLimits.maximumChunkBytes }
        return CloudRequestContext.maximumJSONBody
    }
}
