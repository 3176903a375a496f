import CacheManifest
import Container
import Foundation
import TestSupport
import Testing

@Suite("Downloads killed with SIGKILL", .serialized)
struct KilledDownloadTests {
    @Test("a 100 MB download killed at 20 random offsets completes with the right SHA-256, re-fetching under 1 MiB per relaunch")
    func killedTwentyTimes() async throws {
        let files = try TemporaryDirectory("srv")
        let size = 100 << 20
        let content = patternData(count: size, seed: 42)
        try files.write(content, to: "big.bin")
        let expected = sha256Hex(content)
        let server = try ContentServerProcess(root: files)
        let home = try TemporaryDirectory("kill")
        let containerPath = home.url.appendingPathComponent("home").path
        guard let worker = BuiltExecutable.locate("download-worker") else { throw TestFailure("download-worker was not built") }
        let arguments = [server.url("big.bin").absoluteString, containerPath, "Library/Caches/big.bin"]
        var rng = SplitMix(state: 20)
        let offsets = (0..<20).map { _ in Int.random(in: 1...(size - 1), using: &rng) }.sorted()
        var lastSeen = 0
        var worst = 0
        var resumes = 0
        let partDirectory = URL(fileURLWithPath: containerPath).appendingPathComponent("Library/Caches/.partial")
        @Sendable func partSize() -> Int {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: partDirectory.path)) ?? []
            guard let part = names.first(where: { $0.hasSuffix(".part") }) else { return 0 }
            return ((try? FileManager.default.attributesOfItem(atPath: partDirectory.appendingPathComponent(part).path))?[.size] as? Int) ?? 0
        }
        for offset in offsets where offset > lastSeen {
            let output = home.file("out-\(offset)")
            FileManager.default.createFile(atPath: output.path, contents: nil)
            let process = Process()
            process.executableURL = worker
            process.arguments = arguments
            process.standardOutput = try FileHandle(forWritingTo: output)
            try process.run()
            // Kill as soon as the part passes the offset (or the worker ends),
            // watched from a thread of its own: a poll that slept on the
            // cooperative pool woke, in a full run, only after the worker
            // had fetched the whole file, and no kill landed mid-download.
            let before = try await offThePool { [process] in
                while process.isRunning, partSize() < offset { usleep(200) }
                let size = partSize()
                kill(process.processIdentifier, SIGKILL)
                return size
            }
            process.waitForExit()
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("start ") }), let start = Int(line.dropFirst(6)) {
                // What was on disk from the previous run is never fetched again.
                #expect(start >= lastSeen - 0)
                worst = max(worst, lastSeen - start)
                if start > 0 { resumes += 1 }
            }
            lastSeen = max(lastSeen, before)
            if text.contains("done ") { break }
        }
        // The last relaunch runs to the end.
        let result = try ChildProcess.run(worker, arguments)
        #expect(result.status == 0, "\(result.standardError)")
        let done = result.output.split(separator: "\n").first { $0.hasPrefix("done ") }
        #expect(done?.split(separator: " ")[1] == Substring(expected))
        let container = try AppContainer(existingAt: URL(fileURLWithPath: containerPath))
        #expect(try sha256Hex(container.read("Library/Caches/big.bin")) == expected)
        #expect(worst <= 1 << 20)
        let stats = try await server.stats()
        // Everything the server sent beyond the file itself: bytes in flight
        // when a worker was killed.
        print("killed-download overhead: \(stats.bodyBytes - size) bytes over \(offsets.count) kills, \(stats.rangeRequests) range requests")
        // The kills landed mid-download and the relaunches resumed: without
        // this the test passes, vacuously, when one worker fetches it all.
        #expect(resumes >= 10, "only \(resumes) relaunches resumed a part")
        #expect(stats.rangeRequests >= resumes)
    }
}
