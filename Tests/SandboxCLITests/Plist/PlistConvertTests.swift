import Foundation
import PropertyList
import TestSupport
import Testing

@Suite struct PlistConvertTests {
    private func decode(_ data: Data) throws -> PropertyListValue {
        try PropertyListValue(data: data)
    }

    /// Text writers may sort keys (CF's XML writer does, and `-r` asks JSON
    /// to), while dictionary equality counts key order: compare sorted.
    private func sorted(_ value: PropertyListValue) -> PropertyListValue {
        value.sortingKeys()
    }

    @Test func rewritesInPlaceKeepingModeAndSymlinks() throws {
        let directory = try TemporaryDirectory()
        // A file not written by our writer, so a rewrite really changes bytes.
        let fixture = try Data(contentsOf: SandboxProcess.fixtures.appendingPathComponent("bplist/cpython_TESTDATA_binary.plist"))
        let file = try directory.write(fixture, to: "data.plist")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file.path)
        try FileManager.default.createSymbolicLink(atPath: directory.url.appendingPathComponent("link.plist").path,
                                                   withDestinationPath: "data.plist")
        let result = try SandboxProcess.run(["-convert", "binary1", "link.plist"], in: directory.url)
        #expect(result.status == 0)
        #expect(result.standardOutput.isEmpty && result.standardError.isEmpty)
        let rewritten = try directory.read("data.plist")
        #expect(try decode(rewritten) == decode(fixture))
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o640)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory.url.appendingPathComponent("link.plist").path) == "data.plist")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == ["data.plist", "link.plist"])
    }

    @Test func writesToTheOutputPath() throws {
        let directory = try TemporaryDirectory()
        let original = try PlistSamples.binary()
        try directory.write(original, to: "in.plist")
        let result = try SandboxProcess.run(["-convert", "binary1", "-o", "out.plist", "in.plist"], in: directory.url)
        #expect(result.status == 0)
        #expect(try directory.read("in.plist") == original)
        #expect(try decode(directory.read("out.plist")) == PlistSamples.document)
    }

    @Test func replacesTheExtension() throws {
        let directory = try TemporaryDirectory()
        try directory.write(PlistSamples.binary(), to: "a.plist")
        try directory.write(PlistSamples.binary(["n": 1]), to: "b")
        let result = try SandboxProcess.run(["-convert", "binary1", "-e", "bin", "a.plist", "b"], in: directory.url)
        #expect(result.status == 0)
        #expect(try decode(directory.read("a.bin")) == PlistSamples.document)
        #expect(try decode(directory.read("b.bin")) == ["n": 1])
    }

    @Test func convertsStandardInputToStandardOutput() throws {
        let directory = try TemporaryDirectory()
        let result = try SandboxProcess.run(["-convert", "binary1", "-"], input: PlistSamples.binary(), in: directory.url)
        #expect(result.status == 0)
        #expect(result.standardOutput.starts(with: Data("bplist00".utf8)))
        #expect(try decode(result.standardOutput) == PlistSamples.document)
        #expect(!directory.contains("-"))
    }

    @Test func aFailedConversionLeavesTheFileAlone() throws {
        let directory = try TemporaryDirectory()
        let broken = Data("bplist00 not really".utf8)
        try directory.write(broken, to: "broken.plist")
        try directory.write(PlistSamples.binary(), to: "good.plist")
        let result = try SandboxProcess.run(["-convert", "binary1", "-e", "out", "broken.plist", "good.plist"], in: directory.url)
        #expect(result.status == 1)
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.hasPrefix("broken.plist: ") == true)
        #expect(try directory.read("broken.plist") == broken)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
            == ["broken.plist", "good.out", "good.plist"])
    }

    @Test(.enabled(if: FormatAvailability.json, "needs the JSON reader and writer"))
    func convertsBinaryToJSONOnStandardOutput() throws {
        let directory = try TemporaryDirectory()
        try directory.write(PlistSamples.binary(PlistSamples.jsonSafe), to: "data.plist")
        let result = try SandboxProcess.run(["-convert", "json", "-r", "-o", "-", "data.plist"], in: directory.url)
        #expect(result.status == 0)
        #expect(try sorted(PropertyListValue.decode(result.standardOutput, as: .json)) == sorted(PlistSamples.jsonSafe))
        #expect(try directory.read("data.plist") == PlistSamples.binary(PlistSamples.jsonSafe))
    }

    @Test(.enabled(if: FormatAvailability.json, "needs the JSON reader and writer"))
    func convertsJSONBackToBinaryInPlace() throws {
        let directory = try TemporaryDirectory()
        try directory.write(PlistSamples.jsonSafe.encoded(as: .json), to: "data.json")
        let result = try SandboxProcess.run(["-convert", "binary1", "data.json"], in: directory.url)
        #expect(result.status == 0)
        let rewritten = try directory.read("data.json")
        #expect(rewritten.starts(with: Data("bplist00".utf8)))
        #expect(try sorted(decode(rewritten)) == sorted(PlistSamples.jsonSafe))
    }

    @Test(.enabled(if: FormatAvailability.xml, "needs the XML reader and writer"))
    func convertsBetweenBinaryAndXML() throws {
        let directory = try TemporaryDirectory()
        try directory.write(PlistSamples.binary(), to: "data.plist")
        let toXML = try SandboxProcess.run(["-convert", "xml1", "data.plist"], in: directory.url)
        #expect(toXML.status == 0)
        let xml = try directory.read("data.plist")
        #expect(PropertyListFormat.detect(xml) == .xml)
        #expect(try sorted(decode(xml)) == sorted(PlistSamples.document))
        let back = try SandboxProcess.run(["-convert", "binary1", "-o", "-", "data.plist"], in: directory.url)
        #expect(try sorted(decode(back.standardOutput)) == sorted(PlistSamples.document))
    }

    @Test(.enabled(if: FormatAvailability.xml, "needs the XML reader"))
    func xmlAndBinaryFixturesHoldTheSameValue() throws {
        let directory = try TemporaryDirectory()
        let xml = SandboxProcess.fixtures.appendingPathComponent("xml/cpython_TESTDATA_xml.plist").path
        let binary = SandboxProcess.fixtures.appendingPathComponent("bplist/cpython_TESTDATA_binary.plist").path
        let fromXML = try SandboxProcess.run(["-convert", "binary1", "-o", "-", xml], in: directory.url)
        let fromBinary = try SandboxProcess.run(["-convert", "binary1", "-o", "-", binary], in: directory.url)
        #expect(fromXML.status == 0 && fromBinary.status == 0)
        #expect(try sorted(decode(fromXML.standardOutput)) == sorted(decode(fromBinary.standardOutput)))
    }

    @Test(.enabled(if: FormatAvailability.openStep, "needs the OpenStep reader and writer"))
    func convertsToOpenStep() throws {
        let directory = try TemporaryDirectory()
        let strings: PropertyListValue = ["Name": "Possessions", "Items": ["apple", "pear"], "Empty": [:]]
        try directory.write(PlistSamples.binary(strings), to: "data.plist")
        let result = try SandboxProcess.run(["-convert", "openstep", "-o", "-", "data.plist"], in: directory.url)
        #expect(result.status == 0)
        #expect(try sorted(PropertyListValue.decode(result.standardOutput, as: .openStep)) == sorted(strings))
    }

    /// A binary document of 70,000 entries; with `badAt`, that entry's
    /// string holds a control character, which the XML writer refuses.
    private func largeBinary(badAt bad: Int? = nil) throws -> Data {
        try PropertyListValue.dictionary(.init(uniqueKeysWithValues: (0..<70_000).map {
            ("k\($0)", PropertyListValue.array([.string($0 == bad ? "bad \u{1}" : "v\($0)"), .integer(PropertyListInteger(Int64($0)))]))
        })).encoded(as: .binary)
    }

    /// A large binary file converted into an XML file is written while it
    /// is converted: the bytes of converting in memory. One that fails late
    /// leaves the output file as it was, with no temporary file behind, and
    /// prints the failure line of converting to standard output.
    @Test(.enabled(if: FormatAvailability.xml, "needs the XML writer"))
    func convertsLargeBinaryFilesIntoXMLFilesAsTheyGo() throws {
        let directory = try TemporaryDirectory()
        let good = try largeBinary()
        try directory.write(good, to: "good.plist")
        let result = try SandboxProcess.run(["-convert", "xml1", "-o", "out.xml", "good.plist"], in: directory.url)
        #expect(result.status == 0)
        #expect(try directory.read("out.xml") == PropertyListValue.convert(good, from: .binary, to: .xml))
        try directory.write(largeBinary(badAt: 69_999), to: "bad.plist")
        let before = try directory.read("out.xml")
        let failed = try SandboxProcess.run(["-convert", "xml1", "-o", "out.xml", "bad.plist"], in: directory.url)
        let toStandardOutput = try SandboxProcess.run(["-convert", "xml1", "-o", "-", "bad.plist"], in: directory.url)
        #expect(failed.status == 1)
        #expect(!failed.errorLines.isEmpty)
        #expect(failed.errorLines == toStandardOutput.errorLines)
        #expect(toStandardOutput.standardOutput.isEmpty)
        #expect(try directory.read("out.xml") == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == ["bad.plist", "good.plist", "out.xml"])
    }

    /// A file that cannot be converted reports that, even where the output
    /// cannot be written either: converting comes first, as when the whole
    /// output was made before writing.
    @Test(.enabled(if: FormatAvailability.xml, "needs the XML writer"))
    func aConversionFailureComesBeforeAWriteFailure() throws {
        let directory = try TemporaryDirectory()
        try directory.write(Data("bplist00 and no more".utf8), to: "broken.plist")
        try directory.write(largeBinary(badAt: 35_000), to: "bad.plist")
        for name in ["broken.plist", "bad.plist"] {
            let intoMissingFolder = try SandboxProcess.run(["-convert", "xml1", "-o", "missing/out.xml", name], in: directory.url)
            let toStandardOutput = try SandboxProcess.run(["-convert", "xml1", "-o", "-", name], in: directory.url)
            #expect(intoMissingFolder.status == 1, "\(name)")
            #expect(!intoMissingFolder.errorLines.isEmpty, "\(name)")
            #expect(intoMissingFolder.errorLines == toStandardOutput.errorLines, "\(name)")
        }
        try directory.write(largeBinary(), to: "good.plist")
        let writeFailure = try SandboxProcess.run(["-convert", "xml1", "-o", "missing/out.xml", "good.plist"], in: directory.url)
        #expect(writeFailure.status == 1)
        #expect(writeFailure.errorLines.first?.contains("missing/out.xml") == true, "\(writeFailure.errorLines)")
    }

    @Test func createsEmptyDictionaries() throws {
        let directory = try TemporaryDirectory()
        let result = try SandboxProcess.run(["-create", "binary1", "new.plist", "-"], in: directory.url)
        #expect(result.status == 0)
        #expect(try decode(directory.read("new.plist")) == [:])
        #expect(try decode(result.standardOutput) == [:])
    }
}
