import Foundation
import TestSupport
import Testing

@Suite struct PlistLintTests {
    private let goodBinaryFixtures = [
        "bplist/cpython_TESTDATA_binary.plist", "bplist/libplist_uid.bplist",
        "bplist/rustplist_utf16_bplist.plist", "keyed_archive/cpython_TESTDATA_keyed_archive.bplist",
    ]

    @Test func goodFilesAreOK() throws {
        let directory = try TemporaryDirectory()
        let paths = goodBinaryFixtures.map { SandboxProcess.fixtures.appendingPathComponent($0).path }
        let result = try SandboxProcess.run(paths, in: directory.url)
        #expect(result.status == 0)
        #expect(result.output == paths.map { "\($0): OK\n" }.joined())
        #expect(result.standardError.isEmpty)
    }

    @Test func silentLintPrintsNothing() throws {
        let directory = try TemporaryDirectory()
        let path = SandboxProcess.fixtures.appendingPathComponent(goodBinaryFixtures[0]).path
        let result = try SandboxProcess.run(["-lint", "-s", path], in: directory.url)
        #expect(result.status == 0)
        #expect(result.standardOutput.isEmpty && result.standardError.isEmpty)
    }

    @Test func aMalformedFileFailsAndTheOthersAreStillChecked() throws {
        let directory = try TemporaryDirectory()
        try directory.write(PlistSamples.binary(), to: "good.plist")
        try directory.write(Data("bplist00".utf8), to: "short.plist")
        let result = try SandboxProcess.run(["good.plist", "short.plist", "good.plist"], in: directory.url)
        #expect(result.status == 1)
        #expect(result.output == "good.plist: OK\ngood.plist: OK\n")
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.hasPrefix("short.plist: binary property list: ") == true)
    }

    @Test func everyMalformedBinaryFixtureIsReported() throws {
        let directory = try TemporaryDirectory()
        let malformed = SandboxProcess.fixtures.appendingPathComponent("malformed")
        let paths = try FileManager.default.contentsOfDirectory(atPath: malformed.path)
            // The datetime ones hold NaN or huge dates, which CF (and so this reader) accepts.
            .filter { $0.hasPrefix("cpython_invalid_") && !$0.contains("datetime") }.sorted()
            .map { malformed.appendingPathComponent($0).path }
        try #require(paths.count >= 30)
        let result = try SandboxProcess.run(paths, in: directory.url)
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.errorLines.count == paths.count)
        for (line, path) in zip(result.errorLines, paths) {
            #expect(line.hasPrefix("\(path): binary property list: "))
        }
    }

    @Test func missingAndUnreadableFilesAreFailures() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.url.appendingPathComponent("folder"), withIntermediateDirectories: false)
        let result = try SandboxProcess.run(["missing.plist", "folder"], in: directory.url)
        #expect(result.status == 1)
        #expect(result.errorLines == [
            "missing.plist: cannot read: No such file or directory",
            "folder: cannot read: Is a directory",
        ])
    }

    @Test func standardInputIsNamedStdin() throws {
        let directory = try TemporaryDirectory()
        let good = try SandboxProcess.run(["-"], input: PlistSamples.binary(), in: directory.url)
        #expect(good.status == 0)
        #expect(good.output == "<stdin>: OK\n")
        let bad = try SandboxProcess.run(["-lint", "-"], input: Data("bplist00garbage".utf8), in: directory.url)
        #expect(bad.status == 1)
        #expect(bad.errorLines.first?.hasPrefix("<stdin>: ") == true)
    }

    @Test(.enabled(if: FormatAvailability.xml, "needs the XML reader and writer"))
    func xmlFixturesAreOK() throws {
        let directory = try TemporaryDirectory()
        let paths = ["xml/cpython_TESTDATA_xml.plist", "xml/ddplist_test-xml-utf-16le-bom.plist"]
            .map { SandboxProcess.fixtures.appendingPathComponent($0).path }
        let result = try SandboxProcess.run(paths, in: directory.url)
        #expect(result.status == 0)
        #expect(result.output == paths.map { "\($0): OK\n" }.joined())
    }
}
