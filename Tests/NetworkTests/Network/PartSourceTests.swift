import CacheManifest
import Container
import ContentServer
import Foundation
@testable import NetworkTransfers
import TestSupport
import Testing

@Suite("A part's source record")
struct PartSourceTests {
    let url = "http://127.0.0.1:8080/maps/tile-0042.bin"
    let date = "Sat, 28 Nov 2026 18:40:00 GMT"

    @Test("it reads back what it wrote, and fits in an ext4 inode with an HTTP date or a strong ETag of 43 bytes")
    func roundTrip() throws {
        let weak = try #require(PartSource(url: url, etag: "W/\"0123456789abcdef0123456789abcdef\"", lastModified: date))
        #expect(weak.validator == date)
        #expect(PartSource(decoding: weak.encoded) == weak)
        #expect(weak.encoded.count == 46)
        let strong = try #require(PartSource(url: url, etag: "\"" + String(repeating: "a", count: 41) + "\"", lastModified: date))
        #expect(strong.validator.hasPrefix("\"aaa"))
        #expect(PartSource(decoding: strong.encoded) == strong)
        #expect(strong.encoded.count <= 60)
    }

    @Test("a record of another layout, a truncated one or the old JSON one is not read")
    func refusesOtherRecords() throws {
        let source = try #require(PartSource(url: url, etag: "\"v1\"", lastModified: nil))
        var otherLayout = source.encoded
        otherLayout[0] = 2
        #expect(PartSource(decoding: otherLayout) == nil)
        #expect(PartSource(decoding: Array(source.encoded.prefix(17))) == nil)
        #expect(PartSource(decoding: []) == nil)
        #expect(PartSource(decoding: Array(#"{"url":"http://a/b","etag":"\"v1\""}"#.utf8)) == nil)
        var badText = source.encoded
        badText.append(0xFF)
        #expect(PartSource(decoding: badText) == nil)
    }

    @Test("no validator, no record: a weak ETag alone cannot be sent in If-Range")
    func needsAValidator() {
        #expect(PartSource(url: url, etag: "W/\"x\"", lastModified: nil) == nil)
        #expect(PartSource(url: url, etag: nil, lastModified: nil) == nil)
        #expect(PartSource(url: url, etag: nil, lastModified: date)?.validator == date)
    }

    @Test("the same URL and version match; another URL, ETag or date (without an ETag) does not")
    func matching() throws {
        let tagged = try #require(PartSource(url: url, etag: "\"v1\"", lastModified: date))
        #expect(tagged.isFrom(url))
        #expect(!tagged.isFrom(url + "?v=2"))
        #expect(tagged.isSameVersion(etag: "\"v1\"", lastModified: date))
        // With an ETag the ETag decides, as before: a date that moves does not restart.
        #expect(tagged.isSameVersion(etag: "\"v1\"", lastModified: "Sun, 29 Nov 2026 00:00:00 GMT"))
        #expect(!tagged.isSameVersion(etag: "\"v2\"", lastModified: date))
        #expect(!tagged.isSameVersion(etag: nil, lastModified: date))
        let dated = try #require(PartSource(url: url, etag: nil, lastModified: date))
        #expect(dated.isSameVersion(etag: nil, lastModified: date))
        #expect(!dated.isSameVersion(etag: nil, lastModified: "Sun, 29 Nov 2026 00:00:00 GMT"))
        // An ETag spelled as the date is another version.
        #expect(!dated.isSameVersion(etag: date, lastModified: date))
    }

    @Test("a part left by one URL is not continued by a download of another URL to the same place")
    func anotherURLStartsAgain() async throws {
        let files = try TemporaryDirectory("srv")
        let first = patternData(count: 600_000, seed: 7), second = patternData(count: 600_000, seed: 8)
        try files.write(first, to: "one.bin")
        try files.write(second, to: "two.bin")
        let server = try ContentServerProcess(root: files)
        try await server.inject([ContentFault(path: "/one.bin", kind: .reset, afterBytes: 200_000)])
        let (_, container) = try makeContainer()
        let once = testDownloader(retry: .never)
        await #expect(throws: NetworkError.self) {
            try await once.download(DownloadRequest(url: server.url("one.bin"), destination: "Library/Caches/map.bin"), into: container)
        }
        await once.shutdown()
        let parts = partialFiles(container)
        try #require(parts.count == 1)
        // The part carries its record, small enough for the inode.
        let part = try container.openFile("Library/Caches/.partial/" + parts[0], mode: .readWrite)
        let record = try #require(try part.extendedAttribute(PartSource.attribute))
        part.close()
        #expect(record.count <= 60)
        #expect(PartSource(decoding: record)?.isFrom(server.url("one.bin").absoluteString) == true)
        let downloader = testDownloader()
        let result = try await downloader.download(DownloadRequest(url: server.url("two.bin"), destination: "Library/Caches/map.bin"),
                                                   into: container)
        await downloader.shutdown()
        #expect(result.resumedFrom == 0)
        #expect(try container.read("Library/Caches/map.bin") == second)
        #expect(partialFiles(container).isEmpty)
    }
}
