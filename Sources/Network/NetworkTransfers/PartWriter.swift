import AsyncHTTPClient
import Container
import Crypto
import Foundation
import NIOCore
import NIOHTTP1

/// The response side of one download attempt, run by AsyncHTTPClient on
/// the connection's event loop: from the head it decides whether the body
/// may be written (a 200 starts the part again from byte 0; a 206 must
/// continue the same version from the part's end, or nothing is written;
/// a 206 or 416 saying the resource is exactly the part's length, same
/// version, completes the part with no body),
/// then writes each body chunk to the part and adds it to the hash as it
/// arrives.
///
/// Why on the event loop: a chunk costs a `pwrite` into the page cache and
/// its hash, a few microseconds; handing every chunk to a task (the async
/// body sequence) cost more than that work itself (docs/PERFORMANCE.md,
/// issue 15). The write also gives the back-pressure: the next chunk is
/// read once this one is written. A resumed part's first bytes are hashed
/// before the request, off the loop.
///
/// `@unchecked Sendable`: AsyncHTTPClient calls the delegate on the task's
/// event loop, one call at a time, and the attempt reads the state only
/// after the task's future has completed.
final class PartWriter: HTTPClientResponseDelegate, @unchecked Sendable {
    typealias Response = Void

    /// The part that may be continued, with the hash of its bytes so far.
    struct Resumable {
        var handle: ContainerFileHandle
        var bytes: Int64
        var source: PartSource
        var hasher: SHA256
    }

    /// Why the body was not written, or stopped being written: decided
    /// from the head, or a failed write. The request is cancelled with it.
    struct Stopped: Error {}

    /// The most bytes the file may have, and which limit that is (for the
    /// error): checked as each chunk arrives, so an endless body stops at
    /// the limit, not when the disk is full.
    struct SizeLimit {
        var bytes: Int64
        var name: String
    }

    /// The least rate of a body: at least `bytes` in every `seconds`.
    struct RateFloor {
        var bytes: Int64
        var seconds: Double
    }

    private let partial: PartialDownload
    private let url: URL
    private let progress: (@Sendable (DownloadProgress) -> Void)?
    private var resumable: Resumable?
    private let limit: SizeLimit?
    private let floor: RateFloor?
    /// Checks the rate once a window, on the task's event loop (so it
    /// shares the state with the callbacks without a lock).
    private var rateCheck: RepeatedTask?
    private var bytesThisWindow: Int64 = 0

    // Read by the attempt once the request has ended.
    private(set) var etag: String?
    private(set) var lastModified: String?
    /// The part being written; nil until a head allowed it.
    private(set) var handle: ContainerFileHandle?
    private(set) var hasher = SHA256()
    /// Bytes of the file in the part.
    private(set) var offset: Int64 = 0
    /// The byte this attempt started writing at.
    private(set) var resumedFrom: Int64 = 0
    private(set) var total: Int64?
    private(set) var failure: Downloader.AttemptFailure?
    /// Whether the response ended (its body complete).
    private var finished = false
    /// The response only confirmed that the part is whole; its body (a
    /// 416's message) is not part of the file.
    private var ignoresBody = false

    init(partial: PartialDownload, resumable: Resumable?, limit: SizeLimit?, floor: RateFloor?,
         progress: (@Sendable (DownloadProgress) -> Void)?) {
        self.partial = partial
        self.url = partial.url
        self.resumable = resumable
        self.limit = limit
        self.floor = floor
        self.progress = progress
    }

    /// Closes whatever part is still open (the one written, or the
    /// resumable one that was never used).
    func close() {
        rateCheck?.cancel()
        handle?.close()
        resumable?.handle.close()
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let link = url.absoluteString
        etag = head.headers.first(name: "ETag")
        lastModified = head.headers.first(name: "Last-Modified")
        let contentRange = head.headers.first(name: "Content-Range") ?? ""
        if head.status.code == 206 || head.status.code == 416, let resumable, ContentRange.completeLength(contentRange) == resumable.bytes,
           isSameVersion(as: resumable) {
            // The part already holds the whole of this version: an earlier
            // attempt received every byte but not the end of the response
            // (a `Content-Length` that overstated it, a reset after the last
            // byte). The server says the resource is exactly the part's size
            // (`bytes */N` with a 416, or an empty range ending at N with a
            // 206) and the validator is the same: the part is complete, to be
            // verified like any other. Starting again from byte 0 would cost
            // another attempt and the whole transfer.
            offset = resumable.bytes
            resumedFrom = offset
            total = offset
            handle = resumable.handle
            hasher = resumable.hasher
            self.resumable = nil
            ignoresBody = true
            return task.eventLoop.makeSucceededVoidFuture()
        }
        if [301, 302, 303, 307, 308].contains(head.status.code), let location = head.headers.first(name: "Location") {
            // Not followed here: the downloader checks the target against
            // its host policy before any connection to it.
            failure = Downloader.AttemptFailure(error: NetworkError(.httpStatus(Int(head.status.code)), url: link,
                "the server redirected to \(location)"), redirect: location)
            return task.eventLoop.makeFailedFuture(Stopped())
        }
        switch head.status.code {
        case 206:
            guard let resumable, let range = ContentRange(contentRange),
                  range.start == resumable.bytes, isSameVersion(as: resumable)
            else {
                // Not the range asked for, or another version: never
                // splice; the next attempt starts from byte 0.
                partial.discard()
                return stop(task, NetworkError(.connectionLost, url: link,
                    "the server answered a range of another version; starting again from byte 0"))
            }
            if let limit, let whole = range.total, whole > limit.bytes {
                partial.discard()
                return stop(task, tooLarge(declared: whole, limit))
            }
            offset = resumable.bytes
            resumedFrom = offset
            total = range.total
            handle = resumable.handle
            hasher = resumable.hasher
            self.resumable = nil
        case 200:
            total = head.headers.first(name: "Content-Length").flatMap { Int64($0) }
            if let limit, let total, total > limit.bytes {
                // Refused from the head: not one byte is written.
                partial.discard()
                return stop(task, tooLarge(declared: total, limit))
            }
            do {
                handle = try partial.restart(with: PartSource(url: link, etag: etag, lastModified: lastModified))
            } catch {
                return stop(task, NetworkError(.file, url: link, "cannot write the part", underlying: error))
            }
        case 416:
            partial.discard()
            return stop(task, NetworkError(.connectionLost, url: link, "the part is longer than the resource; starting again"))
        default:
            let retryAfter = head.headers.first(name: "Retry-After").flatMap { Double($0) }
            return stop(task, NetworkError(.httpStatus(Int(head.status.code)), url: link,
                "the server answered \(head.status.code) \(head.status.reasonPhrase)"), retryAfter: retryAfter)
        }
        progress?(DownloadProgress(url: url, bytes: offset, total: total))
        startRateCheck(task)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        if ignoresBody { return task.eventLoop.makeSucceededVoidFuture() }
        guard let handle, failure == nil else { return task.eventLoop.makeFailedFuture(Stopped()) }
        let incoming = Int64(buffer.readableBytes)
        if let limit, offset + incoming > limit.bytes {
            // Checked before the write: the part never holds a byte past
            // the limit, and it goes (it cannot be the file).
            partial.discard()
            return stop(task, NetworkError(.tooLarge, url: url.absoluteString,
                "the body passed \(limit.name) of \(limit.bytes) bytes (at byte \(offset + incoming)); stopped, the part was removed"))
        }
        bytesThisWindow += incoming
        do {
            try buffer.withUnsafeReadableBytes { bytes in
                hasher.update(bufferPointer: bytes)
                try handle.write(bytes, at: UInt64(offset))
            }
        } catch {
            return stop(task, NetworkError(.file, url: url.absoluteString, "cannot write the part", underlying: error))
        }
        offset += Int64(buffer.readableBytes)
        progress?(DownloadProgress(url: url, bytes: offset, total: total))
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {
        finished = true
        rateCheck?.cancel()
    }

    func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
        rateCheck?.cancel()
    }

    /// Once a window, from the head on: fewer bytes than the floor in the
    /// last window fails the attempt (``NetworkError/Code/tooSlow``). The
    /// stall timeout sees only silence; a byte every few seconds resets it
    /// forever.
    private func startRateCheck(_ task: HTTPClient.Task<Void>) {
        guard let floor, floor.bytes > 0, floor.seconds > 0, !ignoresBody else { return }
        let window = TimeAmount.milliseconds(Int64(floor.seconds * 1000))
        rateCheck = task.eventLoop.scheduleRepeatedTask(initialDelay: window, delay: window) { [self] repeated in
            defer { bytesThisWindow = 0 }
            guard !finished, failure == nil, bytesThisWindow < floor.bytes else { return }
            repeated.cancel()
            failure = Downloader.AttemptFailure(error: NetworkError(.tooSlow, url: url.absoluteString,
                "\(bytesThisWindow) bytes in \(floor.seconds) s, below the minimum of \(floor.bytes) (stopped at byte \(offset))"),
                bytesReceived: offset - resumedFrom)
            task.fail(reason: Stopped())
        }
    }

    private func tooLarge(declared: Int64, _ limit: SizeLimit) -> NetworkError {
        NetworkError(.tooLarge, url: url.absoluteString,
                     "the server declared \(declared) bytes, more than \(limit.name) of \(limit.bytes) bytes; nothing was written")
    }

    /// Whether the response's version is the part's: its ETag, or its
    /// date when it has no ETag.
    private func isSameVersion(as resumable: Resumable) -> Bool {
        resumable.source.isSameVersion(etag: etag, lastModified: lastModified)
    }

    /// Records why the body is not written and cancels the request.
    private func stop(_ task: HTTPClient.Task<Void>, _ error: NetworkError, retryAfter: Double? = nil) -> EventLoopFuture<Void> {
        failure = Downloader.AttemptFailure(error: error, bytesReceived: offset - resumedFrom, retryAfter: retryAfter)
        return task.eventLoop.makeFailedFuture(Stopped())
    }
}
