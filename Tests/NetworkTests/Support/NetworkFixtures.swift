import CacheManifest
import Container
import Crypto
import Foundation
import Synchronization
import NetworkTransfers
import TestSupport

/// Content with a recognisable pattern: byte i of file `seed` is a function
/// of both, so a spliced file never matches either version.
func patternData(count: Int, seed: UInt8) -> Data {
    var data = Data(count: count)
    data.withUnsafeMutableBytes { raw in
        let bytes = raw.bindMemory(to: UInt8.self)
        for index in 0..<count { bytes[index] = UInt8(truncatingIfNeeded: index &* 31 &+ Int(seed) &* 7 &+ index >> 8) }
    }
    return data
}

func sha256Hex(_ data: Data) -> String { ContentDigest.hex(SHA256.hash(data: data)) }

/// The temporary directories of the tests' containers, kept for the whole
/// run: a container value does not keep its directory alive, and a test
/// that only holds the container must not see it removed under it.
private let keptDirectories = Mutex<[TemporaryDirectory]>([])

/// A container for a test, in its own temporary directory (the directory
/// is returned too, for tests that want paths beside the container).
func makeContainer() throws -> (TemporaryDirectory, AppContainer) {
    let directory = try TemporaryDirectory("net")
    keptDirectories.withLock { $0.append(directory) }
    let container = try AppContainer.create(at: directory.url.appendingPathComponent("home"), bundleName: "Maps")
    return (directory, container)
}

/// A downloader with short back-offs, for tests. Unless a test is about
/// stalls, the stall timeout is long and the retry budget large: the whole
/// suite runs in parallel on two cores, and while other suites' synchronous
/// tests hold the cooperative threads (for a minute at the start of a run),
/// the task that drains a response body is not scheduled, AsyncHTTPClient
/// stops reading, and its read timeout fires though the server never
/// stalled. The download then resumes where it was, as after a real stall.
func testDownloader(retry: RetryPolicy = RetryPolicy(maxAttempts: 30, baseDelay: 0.05, maxDelay: 2, totalLimit: 600),
                    stall: Double = 20, conditions: @escaping Downloader.Conditions = { .success(.wifi) }) -> Downloader {
    Downloader(configuration: DownloaderConfiguration(connectTimeout: 2, stallTimeout: stall, attemptTimeout: 60,
                                                      maxConnectionsPerHost: 6, retry: retry),
               conditions: conditions)
}

/// The names of partial files left in a container's caches.
func partialFiles(_ container: AppContainer) -> [String] {
    (try? container.contentsOfDirectory("Library/Caches/.partial").filter { $0.hasSuffix(".part") }) ?? []
}
