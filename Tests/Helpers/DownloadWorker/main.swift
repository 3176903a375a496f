import CacheManifest
import Container
import Foundation
import NetworkTransfers
import Synchronization

// Spawned by the network tests: downloads one URL into a container and is
// killed with SIGKILL at random moments. Prints `start N` (the byte it
// resumed from) and `done SHA256` on standard output.
// `download-worker --record CONTAINER COUNT PREFIX` instead records COUNT
// manifest entries, one transaction each (two such processes at once test
// the manifest's sharing).
let arguments = CommandLine.arguments
if arguments.count == 5, arguments[1] == "--record", let count = Int(arguments[3]) {
    let container = try AppContainer.create(at: URL(fileURLWithPath: arguments[2]))
    let manifest = try CacheManifest(container: container)
    for index in 0..<count {
        try manifest.record(CachedResource(path: "Library/Caches/\(arguments[4])-\(index)", url: "http://example.invalid/\(index)",
                                           size: Int64(index), sha256: "", fetchedAt: Double(index)))
        if index % 10 == 0 { _ = try manifest.count() }
    }
    exit(0)
}
guard arguments.count == 4, let url = URL(string: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: download-worker URL CONTAINER DESTINATION\n".utf8))
    exit(2)
}
/// A line on standard output, unbuffered: the test reads it after a SIGKILL.
@Sendable func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

let container = try AppContainer.create(at: URL(fileURLWithPath: arguments[2]))
let downloader = Downloader(configuration: DownloaderConfiguration(stallTimeout: 5, retry: RetryPolicy(maxAttempts: 20, baseDelay: 0.05)))
let started = Mutex(false)
do {
    let result = try await downloader.download(DownloadRequest(url: url, destination: arguments[3]), into: container) { progress in
        if started.withLock({ let first = !$0; $0 = true; return first }) { say("start \(progress.bytes)") }
    }
    say("done \(result.sha256) \(result.resumedFrom)")
    await downloader.shutdown()
} catch {
    FileHandle.standardError.write(Data("download-worker: \(error)\n".utf8))
    await downloader.shutdown()
    exit(1)
}
