import CacheManifest
import Container
import ContentServer
import Foundation
@testable import NetworkTransfers
import TestSupport
import Synchronization
import Testing

/// Downloads against a content-server process on loopback that plays the
/// attacker: a body that never ends, a body that drips, redirects to
/// private and foreign hosts. Each ends in a typed error naming the URL and
/// the limit, promptly, with no part left behind.
@Suite("Downloads against a hostile server", .serialized)
struct HostileServerTests {
    /// Seconds since `start`.
    private func seconds(since start: Date) -> Double { Date().timeIntervalSince(start) }

    @Test("an endless 200 with no Content-Length stops at the expected size while streaming, and no part is left")
    func endlessBodyStopsAtExpectedSize() async throws {
        let served = try await ServedDownload("e.bin", size: 49_000, seed: 9,
                                              faults: [ContentFault(path: "/e.bin", kind: .endless, times: 100)])
        var request = served.request
        request.expectedSize = 49_000
        let downloader = testDownloader()
        let start = Date()
        let error = await #expect(throws: NetworkError.self) { try await downloader.download(request, into: served.container) }
        #expect(error?.code == .tooLarge)
        #expect(error?.url == request.url.absoluteString)
        #expect(error?.message.contains("the expected size of 49000 bytes") == true, "\(String(describing: error))")
        #expect(error?.attempts == 1)
        // A bound against a hang, loose for a loaded 2-core CI run (69 s
        // was seen beside a build); the byte bounds below are the check.
        #expect(seconds(since: start) < 120)
        #expect(partialFiles(served.container).isEmpty)
        #expect(!served.container.fileExists("Library/Caches/e.bin"))
        // The server wrote far less than an endless body before the client
        // closed (loopback runs ahead of a loaded client: over 64 MiB was
        // seen beside a build); what reached the disk is checked above.
        #expect(try await served.server.stats().bodyBytes < 1 << 30)
    }

    @Test("without an expected size, the cache's hard limit stops an endless body while streaming")
    func endlessBodyStopsAtCacheLimit() async throws {
        let served = try await ServedDownload("l.bin", size: 1000, seed: 10,
                                              faults: [ContentFault(path: "/l.bin", kind: .endless, times: 100)])
        let downloader = testDownloader()
        let cache = try CachedResources(container: served.container, downloader: downloader, sizeLimit: 300_000)
        let error = await #expect(throws: NetworkError.self) { try await cache.fetch(served.request.url, as: "l.bin") }
        #expect(error?.code == .tooLarge)
        #expect(error?.message.contains("the size limit of 300000 bytes") == true, "\(String(describing: error))")
        #expect(partialFiles(served.container).isEmpty)
        #expect(try cache.manifest.count() == 0)
    }

    @Test("a declared length over the limit is refused from the head, before a byte is written")
    func declaredLengthOverLimit() async throws {
        let served = try await ServedDownload("d.bin", size: 200_000, seed: 11)
        var request = served.request
        request.sizeLimit = 100_000
        let error = await #expect(throws: NetworkError.self) { try await testDownloader().download(request, into: served.container) }
        #expect(error?.code == .tooLarge)
        #expect(error?.message.contains("declared 200000 bytes") == true, "\(String(describing: error))")
        #expect(partialFiles(served.container).isEmpty)
    }

    @Test("a body dripping a byte at a time fails below the minimum rate, in one attempt, the part kept for a resume")
    func dripFailsPromptly() async throws {
        let served = try await ServedDownload("p.bin", size: 50_000, seed: 12,
                                              faults: [ContentFault(path: "/p.bin", kind: .drip, afterBytes: 1000, seconds: 0.2, times: 100)])
        let downloader = Downloader(configuration: DownloaderConfiguration(
            connectTimeout: 2, stallTimeout: 20, attemptTimeout: 60,
            retry: RetryPolicy(maxAttempts: 4, baseDelay: 0.05, maxDelay: 0.2, totalLimit: 3), minimumRate: 2000, rateWindow: 1))
        let start = Date()
        let error = await #expect(throws: NetworkError.self) { try await downloader.download(served.request, into: served.container) }
        let elapsed = seconds(since: start)
        #expect(error?.code == .tooSlow, "\(String(describing: error))")
        #expect(error?.attempts == 1)
        #expect(error?.message.contains("below the minimum of 2000") == true)
        // One attempt, refused for its rate, is the check; the bound only
        // guards against a hang (8.6 s was seen beside a full test run on
        // 2 cores, where the rate check's turn on the pool came late).
        #expect(elapsed < 20, "the drip held the download for \(elapsed) s")
        #expect(!served.container.fileExists("Library/Caches/p.bin"))
        #expect(partialFiles(served.container).count == 1)
    }

    @Test("the total limit bounds an attempt under way: a 30 s stall ends at the total limit")
    func totalLimitInsideAnAttempt() async throws {
        let served = try await ServedDownload("s.bin", size: 100_000, seed: 13,
                                              faults: [ContentFault(path: "/s.bin", kind: .stall, afterBytes: 10_000, seconds: 30)])
        let downloader = Downloader(configuration: DownloaderConfiguration(
            connectTimeout: 2, stallTimeout: 60, attemptTimeout: 600,
            retry: RetryPolicy(maxAttempts: 3, baseDelay: 0.05, maxDelay: 0.2, totalLimit: 2), minimumRate: 0))
        let start = Date()
        let error = await #expect(throws: NetworkError.self) { try await downloader.download(served.request, into: served.container) }
        #expect(error?.code == .timedOut, "\(String(describing: error))")
        // Well under the 30 s stall; loose for a loaded machine (5.9 s seen beside a build).
        #expect(seconds(since: start) < 20)
    }

    // MARK: The host policy

    @Test("a URL naming a 10.x address is refused before any connection")
    func privateLiteralRefused() async throws {
        let (_, container) = try makeContainer()
        let downloader = testDownloader()
        let request = DownloadRequest(url: URL(string: "http://10.0.0.7:8080/tile.png")!, destination: "Library/Caches/tile.png")
        let start = Date()
        let error = await #expect(throws: NetworkError.self) { try await downloader.download(request, into: container) }
        #expect(error?.code == .hostRefused)
        #expect(error?.attempts == 0)
        #expect(error?.message.contains("10.0.0.0/8 (private)") == true, "\(String(describing: error))")
        #expect(downloader.transferSpans.isEmpty)  // no attempt ever started: no connection
        #expect(seconds(since: start) < 1)
    }

    @Test("a name resolving to a private or link-local address is refused; the device may allow it")
    func privateNameRefused() async throws {
        let (_, container) = try makeContainer()
        // A name the test resolves itself, as a hostile DNS answer would: one
        // public address and the cloud metadata service's.
        let resolver = AddressResolver { name in name == "localhost" ? ["93.184.216.34", "169.254.169.254"] : [] }
        let downloader = Downloader(configuration: DownloaderConfiguration(connectTimeout: 1, retry: .never), resolver: resolver)
        let request = DownloadRequest(url: URL(string: "http://localhost:1/t.png")!, destination: "Library/Caches/t.png")
        let error = await #expect(throws: NetworkError.self) { try await downloader.download(request, into: container) }
        #expect(error?.code == .hostRefused)
        #expect(error?.message.contains("localhost resolves to it") == true, "\(String(describing: error))")
        #expect(error?.message.contains("169.254.0.0/16 (link-local)") == true)
        #expect(downloader.transferSpans.isEmpty)
        // Allowed by the device, the same name is attempted (and fails
        // otherwise: nothing listens on port 1).
        var allowed = request
        allowed.hostPolicy.allowsPrivateAddresses = true
        let other = await #expect(throws: NetworkError.self) { try await downloader.download(allowed, into: container) }
        #expect(other?.code != .hostRefused)
    }

    @Test("a name is connected at the address the policy checked: a second answer (DNS rebinding) is never asked")
    func nameIsPinnedToTheCheckedAddress() async throws {
        let served = try await ServedDownload("pin.bin", size: 30_000, seed: 18)
        // A hostile resolver: loopback for the first question, the cloud
        // metadata service for every later one. The name exists nowhere
        // else, so a connection that looked it up again could not succeed.
        let asked = Mutex(0)
        let resolver = AddressResolver { name in
            guard name == "rebind.invalid" else { return [] }
            let count = asked.withLock { count in count += 1; return count }
            return count == 1 ? ["127.0.0.1"] : ["169.254.169.254"]
        }
        let downloader = Downloader(configuration: DownloaderConfiguration(connectTimeout: 2, retry: .never), resolver: resolver)
        let url = URL(string: "http://rebind.invalid:\(served.server.port)/pin.bin")!
        let result = try await downloader.download(DownloadRequest(url: url, destination: "Library/Caches/pin.bin"), into: served.container)
        #expect(result.attempts == 1)
        #expect(try served.container.read("Library/Caches/pin.bin") == served.content)
        #expect(asked.withLock { $0 } == 1)
        // The next download asks again, gets the private answer, and is
        // refused before connecting.
        let error = await #expect(throws: NetworkError.self) {
            try await downloader.download(DownloadRequest(url: url, destination: "Library/Caches/pin2.bin"), into: served.container)
        }
        #expect(error?.code == .hostRefused)
        #expect(downloader.transferSpans.count == 1)
    }

    @Test("a 302 from loopback to a private address or to another host is not followed, and says so")
    func redirectsRefused() async throws {
        let served = try await ServedDownload("r.bin", size: 5_000, seed: 14, faults: [
            ContentFault(path: "/r.bin", kind: .redirect, location: "http://10.0.0.9/r.bin"),
            ContentFault(path: "/r.bin", kind: .redirect, location: "http://127.0.0.2:9/r.bin"),
        ])
        let downloader = testDownloader()
        let toPrivate = await #expect(throws: NetworkError.self) { try await downloader.download(served.request, into: served.container) }
        #expect(toPrivate?.code == .hostRefused)
        #expect(toPrivate?.message.contains("to http://10.0.0.9/r.bin leaves the allowed origins") == true, "\(String(describing: toPrivate))")
        let toOther = await #expect(throws: NetworkError.self) { try await downloader.download(served.request, into: served.container) }
        #expect(toOther?.code == .hostRefused)
        #expect(toOther?.message.contains("127.0.0.2:9") == true)
        // One request each, to the loopback server only.
        #expect(downloader.transferSpans.count == 2)
        #expect(partialFiles(served.container).isEmpty)
        #expect(!served.container.fileExists("Library/Caches/r.bin"))
    }

    @Test("an allowed origin that is a private address is still refused when redirected to")
    func redirectToDeclaredPrivateOrigin() async throws {
        let served = try await ServedDownload("v.bin", size: 5_000, seed: 15, faults: [
            ContentFault(path: "/v.bin", kind: .redirect, location: "http://192.168.1.1/v.bin"),
        ])
        var request = served.request
        request.hostPolicy = HostPolicy(allowedOrigins: ["127.0.0.1:\(served.server.port)", "192.168.1.1"])
        let downloader = testDownloader()
        let error = await #expect(throws: NetworkError.self) { try await downloader.download(request, into: served.container) }
        #expect(error?.code == .hostRefused)
        #expect(error?.message.contains("192.168.0.0/16 (private)") == true, "\(String(describing: error))")
        #expect(downloader.transferSpans.count == 1)
    }

    @Test("a redirect within the origin is followed and reported; a loop stops at the cap")
    func sameOriginRedirectAndCap() async throws {
        let served = try await ServedDownload("w.bin", size: 20_000, seed: 16, faults: [
            ContentFault(path: "/moved.bin", kind: .redirect, location: "/w.bin"),
            ContentFault(path: "/loop.bin", kind: .redirect, times: 10, location: "/loop.bin"),
        ])
        let downloader = testDownloader()
        let moved = DownloadRequest(url: served.server.url("moved.bin"), destination: "Library/Caches/w.bin")
        let result = try await downloader.download(moved, into: served.container)
        #expect(result.redirects == [served.server.url("w.bin").absoluteString])
        #expect(try served.container.read("Library/Caches/w.bin") == served.content)
        let loop = DownloadRequest(url: served.server.url("loop.bin"), destination: "Library/Caches/loop.bin")
        let error = await #expect(throws: NetworkError.self) { try await downloader.download(loop, into: served.container) }
        #expect(error?.code == .tooManyRedirects)
        #expect(error?.message.contains("more than 3 redirects") == true, "\(String(describing: error))")
    }

    @Test("a re-fetch from a manifest naming a 10.x address refuses that row and fetches the others")
    func refetchRefusesPrivateManifestRow() async throws {
        let served = try await ServedDownload("ok.bin", size: 8_000, seed: 17)
        let downloader = testDownloader()
        let cache = try CachedResources(container: served.container, downloader: downloader)
        try await cache.fetch(served.request.url, as: "ok.bin")
        // The app (or whoever writes its container) records a row pointing
        // into the device's network.
        try cache.manifest.record(CachedResource(path: "Library/Caches/inside.bin", url: "http://10.0.0.5/admin", size: 10,
                                                 sha256: String(repeating: "0", count: 64), fetchedAt: 0))
        try served.container.removeItem("Library/Caches/ok.bin")
        let report = try await cache.restoreMissing()
        #expect(report.fetched == ["Library/Caches/ok.bin"])
        #expect(report.failures.map(\.path) == ["Library/Caches/inside.bin"])
        #expect(report.failures.first?.error.code == .hostRefused)
        #expect(report.failures.first?.error.attempts == 0)
        #expect(downloader.transferSpans.count == 2)  // the first fetch and its re-fetch only
    }
}

@Suite("Special-purpose addresses")
struct SpecialAddressTests {
    @Test("private, link-local and other special ranges are refused; loopback and global pass")
    func classification() {
        let policy = HostPolicy()
        for address in ["10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.0.1", "169.254.169.254", "0.0.0.0", "100.64.0.1",
                        "224.0.0.1", "255.255.255.255", "fc00::1", "fd12:3456::1", "fe80::1", "::ffff:10.0.0.1", "::ffff:a00:1",
                        "64:ff9b::a00:1", "::", "ff02::1", "fe80::1%eth0", "[fd00::2]"] {
            #expect(policy.refusal(of: address) != nil, "\(address)")
        }
        for address in ["127.0.0.1", "127.9.9.9", "::1", "93.184.216.34", "172.32.0.1", "2606:4700::1111", "::ffff:127.0.0.1"] {
            #expect(policy.refusal(of: address) == nil, "\(address)")
        }
        for text in ["10.1", "167772161", "0x0a.0.0.1", "1.2.3.4.5", "::1::2", "example.com"] {
            #expect(policy.refusal(of: text) != nil, "\(text) is not a numeric address")
        }
        #expect(HostPolicy(allowsPrivateAddresses: true).refusal(of: "10.0.0.1") == nil)
    }
}
