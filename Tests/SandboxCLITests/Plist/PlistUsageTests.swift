import Foundation
import TestSupport
import Testing

@Suite struct PlistUsageTests {
    @Test func usageErrorsExitWith64AndExplain() throws {
        let directory = try TemporaryDirectory()
        let none = try SandboxProcess.run([], in: directory.url)
        #expect(none.status == 64)
        #expect(none.errorLines.first == "Error: No files specified.")
        #expect(none.errorLines.contains { $0.hasPrefix("Usage: sandbox plist") })

        let unknown = try SandboxProcess.run(["-frobnicate", "file.plist"], in: directory.url)
        #expect(unknown.status == 64)
        #expect(unknown.standardError.contains("-frobnicate") || unknown.standardError.contains("Unknown option"))

        let badValue = try SandboxProcess.run(["-insert", "k", "-integer", "many", "file.plist"], in: directory.url)
        #expect(badValue.status == 64)
        #expect(badValue.standardOutput.isEmpty)
    }

    @Test func usageErrorsTouchNoFile() throws {
        let directory = try TemporaryDirectory()
        let original = try PlistSamples.binary()
        try directory.write(original, to: "data.plist")
        let result = try SandboxProcess.run(["-convert", "binary1", "-o", "out", "data.plist", "data.plist"], in: directory.url)
        #expect(result.status == 64)
        #expect(try directory.read("data.plist") == original)
        #expect(!directory.contains("out"))
    }

    @Test(arguments: ["-help", "-h", "--help"])
    func helpExitsWithZero(_ flag: String) throws {
        let directory = try TemporaryDirectory()
        let result = try SandboxProcess.run([flag], in: directory.url)
        #expect(result.status == 0)
        #expect(result.output.contains("USAGE: sandbox plist"))
        #expect(result.output.contains("-convert <format>"))
    }

    @Test func theRootCommandListsPlist() throws {
        let directory = try TemporaryDirectory()
        let result = try SandboxProcess.run(["--help"], in: directory.url, subcommand: nil)
        #expect(result.status == 0)
        #expect(result.output.contains("plist"))
    }
}
