import Foundation
import Synchronization
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// One TCP connection to the server, driven byte by byte: what a hostile
/// client does that an HTTP client will not (a request left half-sent, a
/// body that never ends).
///
/// A plain blocking socket, each call made on a thread of its own
/// (`offThePool`), and every time measured on that thread: under a full
/// parallel test run the cooperative pool and NIO's shared event loops were
/// busy for tens of seconds at a time, and a client on them measured its
/// own wait for a thread, not the server (a close that came at once was
/// seen 40 s later; a head sent late met the server's idle timeout).
final class RawConnection: Sendable {
    let descriptor: Int32
    /// Whether ``close()`` ran: a descriptor is closed once, never a
    /// number another thread has been given since.
    private let closed = Mutex(false)

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close() }

    /// Connects to 127.0.0.1:`port` and, when given, sends `text` at once
    /// (on the same thread, so no wait for the pool falls between them).
    static func open(port: Int, sending text: String? = nil) async throws -> RawConnection {
        try await offThePool {
            let connection = try connect(port: port)
            if let text { try connection.sendNow(Array(text.utf8)) }
            return connection
        }
    }

    /// One whole request on a connection of its own: connects, sends
    /// `request` and reads until the server closes, all on one thread, and
    /// the seconds from before the connect to the close.
    static func exchange(port: Int, request: String, limit: Double) async throws -> (bytes: [UInt8], seconds: Double) {
        try await offThePool {
            let start = DispatchTime.now().uptimeNanoseconds
            let connection = try connect(port: port)
            try connection.sendNow(Array(request.utf8))
            let answer = try connection.readNow(limit: limit)
            connection.close()
            return (answer.bytes, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
    }

    private static func connect(port: Int) throws -> RawConnection {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw RawCloudFailure("socket: \(String(cString: strerror(errno)))") }
        let connection = RawConnection(descriptor: fd)
        // A send that the server never drains gives up after 60 s.
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { throw RawCloudFailure("connect to port \(port): \(String(cString: strerror(errno)))") }
        return connection
    }

    /// Sends `text` as it is.
    func send(_ text: String) async throws { try await send(Array(text.utf8)) }

    /// Sends `bytes`, all of them.
    func send(_ bytes: [UInt8]) async throws {
        try await offThePool { try self.sendNow(bytes) }
    }

    private func sendNow(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw RawCloudFailure("send: \(String(cString: strerror(errno)))")
            }
            sent += count
        }
    }

    /// Everything the server sends until it closes the connection (or
    /// resets it), and the seconds that took, measured on the reading
    /// thread; throws past `limit` seconds.
    func readUntilClosed(limit: Double) async throws -> (bytes: [UInt8], seconds: Double) {
        try await offThePool { try self.readNow(limit: limit) }
    }

    private func readNow(limit: Double) throws -> (bytes: [UInt8], seconds: Double) {
        let start = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let remaining = limit - elapsed()
            guard remaining > 0 else { throw RawCloudFailure("the server kept the connection open for \(limit) s") }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, Int32(min(remaining, 1) * 1000) + 1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                bytes += buffer[0..<count]
                continue
            }
            if count < 0 && errno == EINTR { continue }
            // 0: closed; a reset is a close too.
            return (bytes, elapsed())
        }
    }

    /// Reads one whole response (its head and a `Content-Length` body),
    /// leaving the connection open; throws past `limit` seconds or when
    /// the server closes first.
    func readResponse(limit: Double) async throws -> [UInt8] {
        try await offThePool {
            let start = DispatchTime.now().uptimeNanoseconds
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            let separator = Array("\r\n\r\n".utf8)
            while true {
                if let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) {
                    let head = String(decoding: bytes[..<end], as: UTF8.self).lowercased()
                    let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                        .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                    if bytes.count >= end + separator.count + length { return bytes }
                }
                let remaining = limit - Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                guard remaining > 0 else { throw RawCloudFailure("no whole response within \(limit) s") }
                var entry = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&entry, 1, Int32(min(remaining, 1) * 1000) + 1) > 0 else { continue }
                let count = buffer.withUnsafeMutableBytes { recv(self.descriptor, $0.baseAddress, $0.count, 0) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw RawCloudFailure("the server closed the connection before its answer was whole") }
                bytes += buffer[0..<count]
            }
        }
    }

    /// Closes the socket (once).
    func close() {
        let first = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        _ = Glibc.close(descriptor)
    }

    /// The status of the first response in `bytes` (0 when there is none).
    static func status(_ bytes: [UInt8]) -> Int {
        let text = String(decoding: bytes.prefix(64), as: UTF8.self)
        let parts = text.split(separator: " ", maxSplits: 2)
        return parts.count >= 2 ? Int(parts[1]) ?? 0 : 0
    }
}
