import Foundation
import NIOCore
import NIOPosix

/// One TCP connection to the server, driven byte by byte: what a hostile
/// client does that an HTTP client will not (a request left half-sent, a
/// body that never ends).
final class RawConnection: Sendable {
    let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>

    init(channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>) { self.channel = channel }

    /// A connection dropped on any path (a test that throws midway
    /// included) finishes its writer: NIO asserts in debug builds that an
    /// async channel's writer is finished before it goes, and the
    /// assertion took the whole test process down.
    deinit { close() }

    static func open(port: Int) async throws -> RawConnection {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return RawConnection(channel: channel)
    }

    /// Sends `text` as it is.
    func send(_ text: String) async throws {
        try await channel.channel.writeAndFlush(ByteBuffer(string: text))
    }

    /// Sends `bytes` as one write.
    func send(_ bytes: [UInt8]) async throws {
        try await channel.channel.writeAndFlush(ByteBuffer(bytes: bytes))
    }

    /// Everything the server sends until it closes the connection, and the
    /// seconds that took; throws past `limit` seconds.
    func readUntilClosed(limit: Double) async throws -> (bytes: [UInt8], seconds: Double) {
        let start = Date()
        return try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
            group.addTask {
                var bytes: [UInt8] = []
                do {
                    for try await buffer in self.channel.inbound { bytes += Array(buffer.readableBytesView) }
                } catch {
                    // A reset is a close too.
                }
                return bytes
            }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(limit * 1e9))
                return nil
            }
            guard let first = try await group.next(), let bytes = first else {
                group.cancelAll()
                close()
                throw RawCloudFailure("the server kept the connection open for \(limit) s")
            }
            group.cancelAll()
            channel.outbound.finish()
            return (bytes, Date().timeIntervalSince(start))
        }
    }

    /// Finishes the writer, then closes. NIO asserts (in debug builds) that
    /// an async channel's writer is finished before it goes: a connection
    /// dropped while still open crashed the test process.
    func close() {
        channel.outbound.finish()
        channel.channel.close(promise: nil)
    }

    /// The status of the first response in `bytes` (0 when there is none).
    static func status(_ bytes: [UInt8]) -> Int {
        let text = String(decoding: bytes.prefix(64), as: UTF8.self)
        let parts = text.split(separator: " ", maxSplits: 2)
        return parts.count >= 2 ? Int(parts[1]) ?? 0 : 0
    }
}
