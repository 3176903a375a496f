import Foundation
import TestSupport
import Testing

/// Issue 30, item 4: a preferences write on a full disk is caught at the
/// top as a full disk, by path and in a container: `storageFailed`,
/// `isDiskFull`, the file system's `ENOSPC` in its chain (and, in a
/// container, the container's `.diskFull`), the old file intact, and a
/// background flush's `lastProblem` a full disk too.
@Suite struct DiskFullTests {
    @Test(.enabled(if: PrivateMount.shouldRun, "needs unshare and the right to mount a tmpfs"),
          arguments: ["file", "container"])
    func aWriteOnAFullDiskIsCaughtAsDiskFull(_ place: String) throws {
        let temp = try TemporaryDirectory("prefs-full")
        let mountPoint = temp.url.appendingPathComponent("full")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        let writer = try #require(StressWriter.executable, "prefs-stress-writer was not built")
        let domain = place == "file" ? ["--file", mountPoint.path + "/p.plist"]
            : ["--container", mountPoint.path + "/c", "--domain", "com.example.notes"]
        let result = try PrivateMount.run(mountPoint: mountPoint, size: "512k",
                                          command: [writer.path, "fill-and-write", "--fill", mountPoint.path] + domain)
        #expect(result.status == 0, "\(result.standardError)")
        let container = place == "container" ? "containerDiskFull" : "-"
        #expect(result.output == "storageFailed diskFull ENOSPC \(container) intact diskFull\n", "\(result.standardError)")
        #expect(result.standardError.components(separatedBy: "No space left on device").count == 2, "\(result.standardError)")
    }
}
