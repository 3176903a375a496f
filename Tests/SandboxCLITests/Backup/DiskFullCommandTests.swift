import Foundation
import PropertyList
import TestSupport
import Testing

/// Issue 30, item 4, from the command line: a command that meets a full
/// disk says so once ("No space left on device", the file system's words,
/// at the end of the one error line) and exits with the disk-full status,
/// 74, not the 1 of other failures.
@Suite struct DiskFullCommandTests {
    static let diskFullStatus: Int32 = 74

    private static func occurrences(of text: String, in output: String) -> Int {
        output.components(separatedBy: text).count - 1
    }

    @Test(.enabled(if: PrivateMount.shouldRun, "needs unshare and the right to mount a tmpfs"))
    func backupCreateOnAFullDiskExitsWithTheDiskFullStatus() throws {
        let home = try DeviceCommandTests.Home()
        #expect(try home.run(["device", "create", "ci"]).status == 0)
        let installed = try home.run(["install", try home.bundle(), "--device", "ci", "--json"])
        #expect(installed.status == 0, "\(installed.standardError)")
        let container = try #require(try PropertyListValue.decode(installed.standardOutput, as: .json)["dataContainer"]?.stringValue)
        for index in 0..<120 {
            try Data(repeating: UInt8(index), count: 8_192)
                .write(to: URL(fileURLWithPath: container).appendingPathComponent("Documents/f\(index).bin"))
        }
        let sandbox = try #require(SandboxProcess.executable, "the sandbox executable was not built")
        let mountPoint = home.directory.url.appendingPathComponent("full")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        // Room for the bytes (the backup checks them first), not for the
        // files: the file system runs out of inodes, ENOSPC, part-way.
        let result = try PrivateMount.run(mountPoint: mountPoint, size: "4m", inodes: 48,
                                          command: [sandbox.path, "backup", "create", "--device", "ci", "--to", mountPoint.path, "--json"],
                                          environment: ["SANDBOX_HOME": home.directory.url.appendingPathComponent("home").path])
        #expect(result.status == Self.diskFullStatus, "\(result.standardError)")
        #expect(result.errorLines.count == 1, "\(result.standardError)")
        #expect(Self.occurrences(of: "No space left on device", in: result.standardError) == 1, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("Error: ioFailed"), "\(result.standardError)")
    }

    @Test(.enabled(if: PrivateMount.shouldRun, "needs unshare and the right to mount a tmpfs"))
    func defaultsWriteOnAFullDiskExitsWithTheDiskFullStatusAndKeepsTheOldValue() throws {
        let directory = try TemporaryDirectory()
        let sandbox = try #require(SandboxProcess.executable, "the sandbox executable was not built")
        let mountPoint = directory.url.appendingPathComponent("full")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        // Writes a value, fills the disk, writes another, reads the value
        // back; exits with the second write's status.
        let script = """
            "$2" defaults write "$1/p.plist" Theme -string light || exit 9
            dd if=/dev/zero of="$1/filler" bs=4096 2>/dev/null
            "$2" defaults write "$1/p.plist" Theme -string dark
            status=$?
            "$2" defaults read "$1/p.plist" Theme
            exit $status
            """
        let result = try PrivateMount.run(mountPoint: mountPoint, size: "512k",
                                          command: ["/bin/sh", "-c", script, "sh", mountPoint.path, sandbox.path])
        #expect(result.status == Self.diskFullStatus, "\(result.standardError)")
        #expect(result.output == "light\n")
        #expect(result.errorLines.count == 1, "\(result.standardError)")
        #expect(Self.occurrences(of: "No space left on device", in: result.standardError) == 1, "\(result.standardError)")
    }
}
