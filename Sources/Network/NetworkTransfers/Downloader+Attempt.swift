import AsyncHTTPClient
import CacheManifest
import Container
import Crypto
import Foundation
import NIOCore
import NIOHTTP1

extension Downloader {
    /// One attempt: a request (with `Range`/`If-Range` when a part can be
    /// resumed), the body streamed to the part by a ``PartWriter`` on the
    /// event loop, then verification and the move into place.
    func attemptDownload(_ request: DownloadRequest, from location: URL, into container: AppContainer, client: HTTPClient,
                         deadline seconds: Double,
                         progress: (@Sendable (DownloadProgress) -> Void)?) async -> Result<DownloadResult, AttemptFailure> {
        let url = request.url.absoluteString
        let partial = PartialDownload(container: container, url: request.url, destination: request.destination)
        var headers = HTTPHeaders()
        var resumable: PartWriter.Resumable?
        if let found = partial.resumable() {
            // The bytes already there are hashed here, off the event loop, so
            // that a 206 continues the digest; a 200 starts a new one.
            var hasher = SHA256()
            do { try Self.hashPrefix(of: found.handle, count: found.bytes, into: &hasher) } catch {
                found.handle.close()
                return .failure(AttemptFailure(error: NetworkError(.file, url: url, "cannot read the part", underlying: error)))
            }
            resumable = PartWriter.Resumable(handle: found.handle, bytes: found.bytes, source: found.source, hasher: hasher)
            headers.add(name: "Range", value: "bytes=\(found.bytes)-")
            headers.add(name: "If-Range", value: found.source.validator)
        }
        let floor = configuration.minimumRate > 0 && configuration.rateWindow > 0
            ? PartWriter.RateFloor(bytes: Int64(configuration.minimumRate * configuration.rateWindow), seconds: configuration.rateWindow)
            : nil
        let writer = PartWriter(partial: partial, resumable: resumable, limit: sizeLimit(of: request), floor: floor, progress: progress)
        defer { writer.close() }
        let httpRequest: HTTPClient.Request
        do { httpRequest = try HTTPClient.Request(url: location.absoluteString, method: .GET, headers: headers) } catch {
            return .failure(AttemptFailure(error: NetworkError(.invalidRequest, url: url, "cannot make the request", underlying: error)))
        }
        let task = client.execute(request: httpRequest, delegate: writer,
                                  deadline: .now() + .milliseconds(Int64(max(0, seconds) * 1000)))
        do {
            try await withTaskCancellationHandler { try await task.futureResult.get() } onCancel: { task.cancel() }
        } catch {
            if let failure = writer.failure { return .failure(failure) }
            if writer.handle == nil {
                return .failure(AttemptFailure(error: NetworkError(HTTPFailure.code(of: error), url: url, "the request failed", underlying: error)))
            }
            return .failure(AttemptFailure(error: NetworkError(HTTPFailure.code(of: error), url: url,
                "the transfer broke off at byte \(writer.offset)", underlying: error), bytesReceived: writer.offset - writer.resumedFrom))
        }
        guard let handle = writer.handle else {
            return .failure(AttemptFailure(error: NetworkError(.connectionLost, url: url, "the response had no head")))
        }
        let offset = writer.offset
        let received = offset - writer.resumedFrom
        if let total = writer.total, offset != total {
            return .failure(AttemptFailure(error: NetworkError(.connectionLost, url: url,
                "the body ended at byte \(offset) of \(total)"), bytesReceived: received))
        }
        let digest = ContentDigest.hex(writer.hasher.finalize())
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
            return .failure(AttemptFailure(error: NetworkError(.file, url: url, "cannot move the file into place", underlying: error),
                                           bytesReceived: received))
        }
        return .success(DownloadResult(path: request.destination, size: offset, sha256: digest, etag: writer.etag,
                                       lastModified: writer.lastModified, resumedFrom: writer.resumedFrom, bytesReceived: received,
                                       attempts: 1, started: 0, ended: Date().timeIntervalSince1970))
    }

    /// The smallest of the limits a body must stay under: the expected
    /// size, the request's limit (the cache's), the downloader's maximum.
    func sizeLimit(of request: DownloadRequest) -> PartWriter.SizeLimit? {
        let candidates: [(Int64?, String)] = [(request.expectedSize, "the expected size"), (request.sizeLimit, "the size limit"),
                                              (configuration.maxResourceSize, "the downloader's maximum")]
        return candidates.compactMap { bytes, name in bytes.map { PartWriter.SizeLimit(bytes: $0, name: name) } }
            .min { $0.bytes < $1.bytes }
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

    /// The resource's whole length that a `Content-Range` states after its
    /// slash, whatever comes before it: `bytes */N` (a 416) or a range.
    static func completeLength(_ text: String) -> Int64? {
        guard text.hasPrefix("bytes "), let slash = text.lastIndex(of: "/") else { return nil }
        return Int64(text[text.index(after: slash)...])
    }
}
