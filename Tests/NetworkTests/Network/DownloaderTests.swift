import CacheManifest
import Container
import ContentServer
import Foundation
import NetworkTransfers
import NetworkConditions
import TestSupport
import Testing

/// One file served by its own content-server process, with faults, and
/// downloaded into a new container: the shape most tests here share.
struct ServedDownload {
    let files: TemporaryDirectory
    let server: ContentServerProcess
    let container: AppContainer
    let content: Data
    let name: String

    init(_ name: String, size: Int, seed: UInt8, faults: [ContentFault] = []) async throws {
        files = try TemporaryDirectory("srv")
        content = patternData(count: size, seed: seed)
        self.name = name
        try files.write(content, to: name)
        server = try ContentServerProcess(root: files)
        if !faults.isEmpty { try await server.inject(faults) }
        container = try makeContainer().1
    }

    var request: DownloadRequest { DownloadRequest(url: server.url(name), destination: "Library/Caches/" + name) }

    /// Downloads with `downloader` and checks the file under its name.
    func run(_ downloader: Downloader) async throws -> DownloadResult {
        let result = try await downloader.download(request, into: container)
        #expect(try container.read("Library/Caches/" + name) == content)
        return result
    }
}

@Suite("Downloads against a real content server", .serialized)
struct DownloaderTests {
    @Test("a file arrives whole under its name and no part is left")
    func plainDownload() async throws {
        let served = try await ServedDownload("a.bin", size: 300_000, seed: 1)
        let result = try await served.run(testDownloader())
        #expect(result.sha256 == sha256Hex(served.content))
        #expect(result.etag != nil)
        #expect(partialFiles(served.container).isEmpty)
    }

    @Test("a reset mid-body is retried with Range and the file resumes where it stopped")
    func resumesAfterReset() async throws {
        let served = try await ServedDownload("b.bin", size: 1_000_000, seed: 2,
                                              faults: [ContentFault(path: "/b.bin", kind: .reset, afterBytes: 400_000)])
        let result = try await served.run(testDownloader())
        #expect(result.attempts == 2)
        #expect(result.resumedFrom > 0 && result.resumedFrom <= 400_000)
        let stats = try await served.server.stats()
        #expect(stats.rangeRequests == 1)
        #expect(stats.bodyBytes <= served.content.count + 400_000)
    }

    @Test("when the ETag changes between attempts the download starts again from byte 0 and never splices")
    func etagChangeRestarts() async throws {
        let files = try TemporaryDirectory("srv")
        let old = patternData(count: 600_000, seed: 3)
        try files.write(old, to: "c.bin")
        let server = try ContentServerProcess(root: files)
        try await server.inject([ContentFault(path: "/c.bin", kind: .reset, afterBytes: 200_000)])
        let (_, container) = try makeContainer()
        let once = testDownloader(retry: .never)
        await #expect(throws: NetworkError.self) {
            try await once.download(DownloadRequest(url: server.url("c.bin"), destination: "Library/Caches/c.bin"), into: container)
        }
        await once.shutdown()
        #expect(partialFiles(container).count == 1)
        #expect(!container.fileExists("Library/Caches/c.bin"))
        // A new version (another size, so another ETag).
        let new = patternData(count: 650_000, seed: 4)
        try files.write(new, to: "c.bin")
        let downloader = testDownloader()
        let result = try await downloader.download(DownloadRequest(url: server.url("c.bin"), destination: "Library/Caches/c.bin"), into: container)
        await downloader.shutdown()
        #expect(try container.read("Library/Caches/c.bin") == new)
        #expect(result.resumedFrom == 0)
    }

    @Test("a 503 with Retry-After waits as told, then succeeds")
    func honoursRetryAfter() async throws {
        let served = try await ServedDownload("d.bin", size: 10_000, seed: 5,
                                              faults: [ContentFault(path: "/d.bin", kind: .unavailable, seconds: 1)])
        let start = Date()
        let result = try await served.run(testDownloader())
        #expect(Date().timeIntervalSince(start) >= 0.95)
        #expect(result.attempts == 2)
    }

    @Test("a stall past the timeout is retried and resumed")
    func stallIsRetried() async throws {
        let served = try await ServedDownload("e.bin", size: 500_000, seed: 6,
                                              faults: [ContentFault(path: "/e.bin", kind: .stall, afterBytes: 100_000, seconds: 3)])
        let result = try await served.run(testDownloader(stall: 0.5))
        #expect(result.attempts >= 2)
    }

    @Test("a Content-Length that overstates the body is caught; the part, already whole, is confirmed by a 416 and kept")
    func wrongContentLength() async throws {
        let served = try await ServedDownload("f.bin", size: 200_000, seed: 7,
                                              faults: [ContentFault(path: "/f.bin", kind: .wrongLength, afterBytes: 5_000)])
        let downloader = testDownloader()
        let result = try await served.run(downloader)
        // The lie, then a range from the part's end: the server says the
        // file is exactly that long, so nothing is sent twice.
        #expect(result.attempts == 2)
        #expect(result.resumedFrom == 200_000)
        #expect(partialFiles(served.container).isEmpty)
        let stats = try await served.server.stats()
        #expect(stats.count("GET", "/f.bin") == 2)
        #expect(stats.bodyBytes == 200_000)
        // The kept-alive connection carries nothing stray into the next
        // response (Hummingbird's own answer to that range sent a byte
        // beyond its Content-Length, which failed the next request).
        let again = try await downloader.download(DownloadRequest(url: served.server.url("f.bin"), destination: "Library/Caches/g.bin"),
                                                  into: served.container)
        #expect(again.attempts == 1)
    }

    @Test("an expected SHA-256 that does not match is refused and nothing is left under the name")
    func integrityRefused() async throws {
        let served = try await ServedDownload("g.bin", size: 50_000, seed: 8)
        var request = served.request
        request.expectedSHA256 = String(repeating: "0", count: 64)
        let error = await #expect(throws: NetworkError.self) {
            try await testDownloader().download(request, into: served.container)
        }
        #expect(error?.code == .integrity)
        #expect(!served.container.fileExists("Library/Caches/g.bin"))
        #expect(partialFiles(served.container).isEmpty)
    }

    @Test("a POST is never retried after a reset; a GET is")
    func postIsNotRetried() async throws {
        let files = try TemporaryDirectory("srv")
        try files.write(Data("x".utf8), to: "h.txt")
        let server = try ContentServerProcess(root: files)
        try await server.inject([ContentFault(path: "/_echo", kind: .reset, afterBytes: 2, times: 5)])
        let downloader = testDownloader()
        let error = await #expect(throws: NetworkError.self) {
            try await downloader.send("POST", to: server.url("_echo"), body: Data("order #1".utf8))
        }
        #expect(error?.code == .connectionLost)
        try await server.inject([ContentFault(path: "/h.txt", kind: .unavailable, seconds: 0)])
        let answer = try await downloader.send("GET", to: server.url("h.txt"))
        await downloader.shutdown()
        #expect(answer.status == 200)
        let stats = try await server.stats()
        #expect(stats.count("POST", "/_echo") == 1)
        #expect(stats.count("GET", "/h.txt") == 2)
    }

    @Test("without a network the error says why, and nothing is sent", arguments: [
        NetworkUnavailable.Reason.airplaneMode, .wifiOffByTimer, .deviceLocked, .noRoute,
    ])
    func unavailableSaysWhy(reason: NetworkUnavailable.Reason) async throws {
        let served = try await ServedDownload("i.txt", size: 10, seed: 9)
        let downloader = testDownloader(conditions: { .failure(NetworkUnavailable(reason)) })
        let error = await #expect(throws: NetworkError.self) { try await served.run(downloader) }
        #expect(error?.code == .unavailable(reason))
        #expect(try await served.server.stats().requests.isEmpty)
    }

    @Test("a server that vanishes and comes back on its port: the download waits and completes")
    func serverComesBack() async throws {
        let files = try TemporaryDirectory("srv")
        let content = patternData(count: 800_000, seed: 9)
        try files.write(content, to: "j.bin")
        let first = try ContentServerProcess(root: files)
        let port = first.port
        try await first.inject([ContentFault(path: "/j.bin", kind: .stall, afterBytes: 300_000, seconds: 30)])
        let (_, container) = try makeContainer()
        let downloader = testDownloader(retry: RetryPolicy(maxAttempts: 200, baseDelay: 0.05, maxDelay: 0.3, totalLimit: 90), stall: 0.5)
        let request = DownloadRequest(url: first.url("j.bin"), destination: "Library/Caches/j.bin")
        let download = Task { try await downloader.download(request, into: container) }
        try await Task.sleep(for: .milliseconds(300))
        first.stop()
        try await Task.sleep(for: .milliseconds(700))
        let second = try ContentServerProcess(root: files, port: port)
        let result = try await download.value
        await downloader.shutdown()
        second.stop()
        #expect(try container.read("Library/Caches/j.bin") == content)
        #expect(result.attempts >= 2)
        #expect(result.resumedFrom > 0)
    }
}
