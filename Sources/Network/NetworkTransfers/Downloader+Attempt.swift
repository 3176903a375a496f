import AsyncHTTPClient
import CacheManifest
import Container
import Crypto
import Foundation
import NIOCore

extension Downloader {
    /// One attempt: a request (with `Range`/`If-Range` when a part can be
    /// resumed), the body streamed to the part, then verification and the
    /// move into place.
    func attemptDownload(_ request: DownloadRequest, into container: AppContainer,
                         progress: (@Sendable (DownloadProgress) -> Void)?) async -> Result<DownloadResult, AttemptFailure> {
        let url = request.url.absoluteString
        let partial = PartialDownload(container: container, url: request.url, destination: request.destination)
        let resumable = partial.resumable()
        // Closed unless the server's answer lets it be written on.
        var resumedHandle = resumable?.handle
        defer { if let resumedHandle { resumedHandle.close() } }
        var httpRequest = HTTPClientRequest(url: url)
        httpRequest.method = .GET
        if let resumable, let validator = resumable.source.validator {
            httpRequest.headers.add(name: "Range", value: "bytes=\(resumable.bytes)-")
            httpRequest.headers.add(name: "If-Range", value: validator)
        }
        let response: HTTPClientResponse
        do {
            response = try await client.execute(httpRequest, timeout: .milliseconds(Int64(configuration.attemptTimeout * 1000)))
        } catch {
            return .failure(AttemptFailure(error: NetworkError(HTTPFailure.code(of: error), url: url, "\(error)")))
        }
        let etag = response.headers.first(name: "ETag")
        let lastModified = response.headers.first(name: "Last-Modified")
        var offset: Int64 = 0
        var total: Int64?
        let handle: ContainerFileHandle
        var hasher = SHA256()
        do {
            switch response.status.code {
            case 206:
                guard let resumable, let range = ContentRange(response.headers.first(name: "Content-Range") ?? ""),
                      range.start == resumable.bytes,
                      etag == resumable.source.etag || (resumable.source.etag == nil && lastModified == resumable.source.lastModified)
                else {
                    // Not the range asked for, or another version: never
                    // splice; the next attempt starts from byte 0.
                    partial.discard()
                    return .failure(AttemptFailure(error: NetworkError(.connectionLost, url: url,
                        "the server answered a range of another version; starting again from byte 0")))
                }
                offset = resumable.bytes
                total = range.total
                handle = resumable.handle
                resumedHandle = nil
                try Self.hashPrefix(of: handle, count: offset, into: &hasher)
            case 200:
                total = response.headers.first(name: "Content-Length").flatMap { Int64($0) }
                handle = try partial.restart(with: .init(url: url, etag: etag, lastModified: lastModified, total: total))
            case 416:
                partial.discard()
                return .failure(AttemptFailure(error: NetworkError(.connectionLost, url: url, "the part is longer than the resource; starting again")))
            default:
                let retryAfter = response.headers.first(name: "Retry-After").flatMap { Double($0) }
                return .failure(AttemptFailure(error: NetworkError(.httpStatus(Int(response.status.code)), url: url,
                    "the server answered \(response.status.code) \(response.status.reasonPhrase)"), retryAfter: retryAfter))
            }
        } catch {
            return .failure(AttemptFailure(error: NetworkError(.file, url: url, "cannot write the part: \(error)")))
        }
        defer { handle.close() }
        let resumedFrom = offset
        progress?(DownloadProgress(url: request.url, bytes: offset, total: total))
        do {
            for try await buffer in response.body {
                try Self.write(buffer, to: handle, at: offset, hasher: &hasher)
                offset += Int64(buffer.readableBytes)
                progress?(DownloadProgress(url: request.url, bytes: offset, total: total))
            }
        } catch let error as ContainerError {
            return .failure(AttemptFailure(error: NetworkError(.file, url: url, "cannot write the part: \(error)"),
                                           bytesReceived: offset - resumedFrom))
        } catch {
            return .failure(AttemptFailure(error: NetworkError(HTTPFailure.code(of: error), url: url, "the transfer broke off at byte \(offset): \(error)"),
                                           bytesReceived: offset - resumedFrom))
        }
        let received = offset - resumedFrom
        if let total, offset != total {
            return .failure(AttemptFailure(error: NetworkError(.connectionLost, url: url,
                "the body ended at byte \(offset) of \(total)"), bytesReceived: received))
        }
        let digest = ContentDigest.hex(hasher.finalize())
        if let expected = request.expectedSHA256, expected.lowercased() != digest {
            partial.discard()
            return .failure(AttemptFailure(error: NetworkError(.integrity, url: url,
                "the content's SHA-256 is \(digest), expected \(expected); the part was discarded"), bytesReceived: received))
        }
        if let expected = request.expectedSize, expected != offset {
            partial.discard()
            return .failure(AttemptFailure(error: NetworkError(.integrity, url: url,
                "the content is \(offset) bytes, expected \(expected); the part was discarded"), bytesReceived: received))
        }
        do { try partial.complete(into: request.destination, handle: handle, durability: request.durability) } catch {
            return .failure(AttemptFailure(error: NetworkError(.file, url: url, "cannot move the file into place: \(error)"),
                                           bytesReceived: received))
        }
        return .success(DownloadResult(path: request.destination, size: offset, sha256: digest, etag: etag,
                                       lastModified: lastModified, resumedFrom: resumedFrom, bytesReceived: received,
                                       attempts: 1, started: 0, ended: Date().timeIntervalSince1970))
    }

    /// Writes a received buffer at `offset` and adds it to the hash, without
    /// copying it.
    static func write(_ buffer: ByteBuffer, to handle: ContainerFileHandle, at offset: Int64, hasher: inout SHA256) throws {
        try buffer.withUnsafeReadableBytes { bytes in
            guard let base = bytes.baseAddress, bytes.count > 0 else { return }
            let data = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .none)
            hasher.update(bufferPointer: bytes)
            try handle.write(data, at: UInt64(offset))
        }
    }

    /// Hashes the part's first `count` bytes, so a resumed download's
    /// digest covers the whole file.
    static func hashPrefix(of handle: ContainerFileHandle, count: Int64, into hasher: inout SHA256) throws {
        var offset: Int64 = 0
        while offset < count {
            let data = try handle.read(at: UInt64(offset), count: Int(min(Int64(1 << 20), count - offset)))
            if data.isEmpty { break }
            hasher.update(data: data)
            offset += Int64(data.count)
        }
    }
}

/// `Content-Range: bytes START-END/TOTAL`.
struct ContentRange: Equatable {
    var start: Int64
    var end: Int64
    var total: Int64?

    init?(_ text: String) {
        guard text.hasPrefix("bytes ") else { return nil }
        let parts = text.dropFirst(6).split(separator: "/", maxSplits: 1)
        let bounds = parts.first?.split(separator: "-", maxSplits: 1) ?? []
        guard bounds.count == 2, let start = Int64(bounds[0]), let end = Int64(bounds[1]), start <= end else { return nil }
        self.start = start
        self.end = end
        total = parts.count == 2 ? Int64(parts[1]) : nil
    }
}
