import Container
import Foundation
import TestSupport
import Testing

/// A child process rewrites a file atomically in a loop and is killed with
/// SIGKILL at random moments; after every kill the file must be one complete
/// version, never a torn mix, and never missing.
@Suite struct CrashConsistencyTests {
    static let kills = 200

    @Test func killedWriterNeverLeavesATornFile() throws {
        let temp = try TemporaryDirectory("crash")
        let container = try AppContainer.create(at: temp.url.appendingPathComponent("App"))
        // 96 KiB: more than one write(2) call's worth for the page cache,
        // and above the mapped-read threshold so reads take the mmap path.
        let size = 96 * 1024
        let path = "Documents/state.bin"
        try container.writeAtomically(Self.payload(generation: 0, size: size), to: path)
        var generationsSeen = Set<Substring>()
        // On a loaded machine the writer may take longer to start than the
        // 12 ms window, and would then be killed before its first write every
        // time; each round in which it replaced nothing (the file kept its
        // inode) waits longer (up to 2 s) before its kill, and a round in
        // which it wrote resets the wait.
        var extraWait: UInt32 = 0
        for round in 0..<Self.kills {
            let inodeBefore = try container.attributes(path).inode
            let writer = try CrashWriter.start(["loop", container.root.path, path, String(size)])
            // Between 0 and 12 ms past the extra wait: sometimes before the
            // first write, usually in the middle of one of many.
            usleep(UInt32.random(in: 0...12_000) + extraWait)
            LibC.kill(writer.processIdentifier)
            writer.waitForExit()
            let data = try container.read(path)
            #expect(CrashWriter.isComplete(data, size: size), "round \(round): torn file of \(data.count) bytes")
            if let line = String(decoding: data.prefix(32), as: UTF8.self).split(separator: "\n").first {
                generationsSeen.insert(line)
            }
            extraWait = try container.attributes(path).inode != inodeBefore ? 0 : min(extraWait * 2 + 5_000, 2_000_000)
        }
        // The kills landed at different points of the writer's progress.
        #expect(generationsSeen.count > 1)
        // Leftover temporary files of killed writers are the only debris.
        let names = try container.contentsOfDirectory("Documents")
        #expect(names.allSatisfy { $0 == "state.bin" || ($0.hasPrefix(".sb-") && $0.hasSuffix(".tmp")) })
    }

    /// The same format as the writer's `CrashPayload`.
    static func payload(generation: UInt64, size: Int) -> Data {
        let header = Data("GEN \(generation)\n".utf8)
        let trailer = Data("END \(generation)\n".utf8)
        return header + Data(repeating: UInt8(truncatingIfNeeded: generation % 251 + 1),
                             count: size - header.count - trailer.count) + trailer
    }
}
