import Foundation
import PropertyList
import TestSupport
import Testing
@testable import SandboxCLI

/// `-lint` validates property lists in every format without building their
/// value (issue 14); it must accept and refuse exactly what the commands
/// that decode do, with the same message (for text that may be JSON or
/// OpenStep, both reasons, as decoding gives them).
@Suite struct PlistLintValidationTests {
    /// Every file of the shared corpus, in every format.
    static func corpus() throws -> [URL] {
        let folders = ["bplist", "malformed", "keyed_archive", "misc", "xml", "openstep"]
        return folders.flatMap { folder -> [URL] in
            let directory = SandboxProcess.fixtures.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            return names.sorted().map { directory.appendingPathComponent($0) }
        }
    }

    static func verdict(_ body: () throws -> Void) -> String {
        do { try body(); return "OK" } catch { return "\(error)" }
    }

    @Test func lintAndDecodeAgreeOnEveryCorpusFile() throws {
        let files = try Self.corpus()
        try #require(files.count >= 200, "the shared corpus is missing")
        var refused = 0
        for file in files {
            let data = try Data(contentsOf: file)
            let decoded = Self.verdict { _ = try PlistRunner.decode(data) }
            let linted = Self.verdict { try PlistRunner.lint(data) }
            #expect(linted == decoded, "\(file.lastPathComponent)")
            if decoded != "OK" { refused += 1 }
        }
        #expect(refused >= 30)
    }

    @Test func lintAndDecodeAgreeOnDamagedBinaryFiles() throws {
        let data = try Data(contentsOf: SandboxProcess.fixtures.appendingPathComponent("bplist/cpython_TESTDATA_binary.plist"))
        for index in stride(from: 0, to: data.count, by: 3) {
            for replacement: UInt8 in [0x00, 0xFF, data[index] ^ 0x10] {
                var damaged = data
                damaged[index] = replacement
                let decoded = Self.verdict { _ = try PlistRunner.decode(damaged) }
                #expect(Self.verdict { try PlistRunner.lint(damaged) } == decoded, "byte \(index) = \(replacement)")
            }
        }
    }

    @Test func lintAndDecodeAgreeOnDamagedXMLFiles() throws {
        for name in ["xml/cpython_TESTDATA_xml.plist", "xml/ddplist_test-xml-utf-16be.plist", "xml/libplist_entities.plist"] {
            let data = try Data(contentsOf: SandboxProcess.fixtures.appendingPathComponent(name))
            Self.expectLintAgreesWithDecode(data, name: name, every: 2, replacements: [0x00, 0xFF, UInt8(ascii: "<"), UInt8(ascii: "&")])
        }
    }

    /// Every `step`-th byte replaced by each of `replacements` (and by
    /// itself with one bit flipped), and the file cut there: `-lint` gives
    /// decoding's verdict each time.
    static func expectLintAgreesWithDecode(_ data: Data, name: String, every step: Int, replacements: [UInt8]) {
        for index in stride(from: 0, to: data.count, by: step) {
            for replacement in replacements + [data[index] ^ 0x10] {
                var damaged = data
                damaged[index] = replacement
                let decoded = verdict { _ = try PlistRunner.decode(damaged) }
                #expect(verdict { try PlistRunner.lint(damaged) } == decoded, "\(name): byte \(index) = \(replacement)")
            }
            let cut = data.prefix(index)
            #expect(verdict { try PlistRunner.lint(cut) } == verdict { _ = try PlistRunner.decode(cut) }, "\(name) cut at \(index)")
        }
    }

    @Test func lintAndDecodeAgreeOnDamagedOpenStepAndJSONFiles() throws {
        let openStep = try Data(contentsOf: SandboxProcess.fixtures.appendingPathComponent("openstep/ddplist_test1-ascii-gnustep.plist"))
        let json = Data("{\"a\": [1, -2.5e3, \"x\\u00e9\", true, {\"CF$UID\": 3}], \"b\": {}}".utf8)
        let strings = Data("\"key\" = \"value\";\n/* comment */\nother = 'v\\U00e9';\n".utf8)
        for (name, data) in [("OpenStep", openStep), ("JSON", json), (".strings", strings)] {
            Self.expectLintAgreesWithDecode(data, name: name, every: 1, replacements: [
                0x00, 0xFF, UInt8(ascii: "{"), UInt8(ascii: "\""), UInt8(ascii: ";"), UInt8(ascii: ":"),
            ])
        }
    }

    /// `-convert xml1` of a binary file streams it: the bytes, or the
    /// failure, of decoding then writing.
    @Test func convertingBinaryToXMLGivesWhatDecodingThenWritingGives() throws {
        for file in try Self.corpus() {
            let data = try Data(contentsOf: file)
            func outcome(_ body: () throws -> Data) -> String {
                do { return try body().base64EncodedString() } catch { return "\(error)" }
            }
            let streamed = outcome { try PlistRunner.convert(data, to: .xml, options: .init()) }
            let decoded = outcome { try PlistRunner.decode(data).value.encoded(as: .xml) }
            #expect(streamed == decoded, "\(file.lastPathComponent)")
        }
    }

    /// The whole command: `-lint` prints the same failure lines as `-p`.
    @Test func lintReportsWhatPrintReports() throws {
        let directory = try TemporaryDirectory()
        let paths = try Self.corpus().filter {
            $0.path.contains("/malformed/") || $0.path.contains("/bplist/") || $0.path.contains("/xml/")
                || $0.path.contains("/openstep/")
        }.map(\.path)
        try #require(paths.count >= 60)
        let lint = try SandboxProcess.run(["-lint"] + paths, in: directory.url)
        let print = try SandboxProcess.run(["-p"] + paths, in: directory.url)
        #expect(lint.status == print.status)
        #expect(lint.errorLines == print.errorLines)
        #expect(!lint.errorLines.isEmpty)
        #expect(lint.output.components(separatedBy: "\n").filter { !$0.isEmpty }.count + lint.errorLines.count == paths.count)
    }
}
