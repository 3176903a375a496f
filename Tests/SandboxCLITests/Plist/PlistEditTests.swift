import Foundation
import PropertyList
import TestSupport
import Testing

@Suite struct PlistEditTests {
    private func value(of name: String, in directory: TemporaryDirectory) throws -> PropertyListValue {
        try PropertyListValue(data: directory.read(name))
    }

    @Test func insertReplaceAndRemoveRoundTrip() throws {
        let directory = try TemporaryDirectory()
        try directory.write(PlistSamples.binary(), to: "data.plist")
        let steps: [[String]] = [
            ["-insert", "Added", "-string", "hello"],
            ["-insert", "Items.0", "-integer", "-7"],
            ["-insert", "Items", "-bool", "yes", "-append"],
            ["-insert", #"with\.dot"#, "-date", "2020-02-29T12:00:00Z"],
            ["-insert", "Nested.Blob", "-data", "AAEC"],
            ["-insert", "Nested.Empty", "-dictionary"],
            ["-replace", "Count", "-float", "4.5"],
            ["-replace", "Nested.Deeper", "-array"],
            ["-remove", "Name"],
            ["-remove", #"com\.example\.key"#],
        ]
        for step in steps {
            let result = try SandboxProcess.run(step + ["data.plist"], in: directory.url)
            #expect(result.status == 0, "\(step): \(result.standardError)")
            #expect(result.standardOutput.isEmpty)
        }
        let edited = try directory.read("data.plist")
        #expect(edited.starts(with: Data("bplist00".utf8)), "rewritten in its own format")
        #expect(try PropertyListValue(data: edited) == [
            "Count": 4.5,
            "Ratio": 0.5,
            "Enabled": true,
            "Items": [-7, "apple", "pear", true],
            "Nested": ["Deeper": [], "Blob": .data(Data([0, 1, 2])), "Empty": [:]],
            "Blob": .data(Data([0xde, 0xad, 0xbe, 0xef])),
            "When": .date(Date(timeIntervalSince1970: 1_098_786_813)),
            "Added": "hello",
            "with.dot": .date(Date(timeIntervalSince1970: 1_582_977_600)),
        ])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["data.plist"])
    }

    @Test func insertingOverAnExistingKeyFailsAndLeavesTheFile() throws {
        let directory = try TemporaryDirectory()
        let original = try PlistSamples.binary()
        try directory.write(original, to: "data.plist")
        let result = try SandboxProcess.run(["-insert", "Name", "-string", "other", "data.plist"], in: directory.url)
        #expect(result.status == 1)
        #expect(result.errorLines == ["data.plist: a value already exists at key path Name"])
        #expect(try directory.read("data.plist") == original)
    }

    @Test func editsEveryFileAndReportsTheOnesThatFail() throws {
        let directory = try TemporaryDirectory()
        try directory.write(PlistSamples.binary(["list": [1]]), to: "a.plist")
        try directory.write(PlistSamples.binary(["list": "not an array"]), to: "b.plist")
        try directory.write(PlistSamples.binary(["list": []]), to: "c.plist")
        let result = try SandboxProcess.run(["-insert", "list", "-integer", "2", "-append", "a.plist", "b.plist", "c.plist"],
                                            in: directory.url)
        #expect(result.status == 1)
        #expect(result.errorLines == ["b.plist: cannot append: the value at key path list is a string, not an array"])
        #expect(try value(of: "a.plist", in: directory) == ["list": [1, 2]])
        #expect(try value(of: "c.plist", in: directory) == ["list": [2]])
    }

    @Test func removingAMissingKeyFails() throws {
        let directory = try TemporaryDirectory()
        try directory.write(PlistSamples.binary(), to: "data.plist")
        let result = try SandboxProcess.run(["-remove", "Nested.Missing", "data.plist"], in: directory.url)
        #expect(result.status == 1)
        #expect(result.errorLines == ["data.plist: no value at key path Nested.Missing"])
    }

    @Test func editsStandardInputOntoStandardOutput() throws {
        let directory = try TemporaryDirectory()
        let result = try SandboxProcess.run(["-replace", "Name", "-string", "Changed", "-"],
                                            input: PlistSamples.binary(), in: directory.url)
        #expect(result.status == 0)
        #expect(try PropertyListValue(data: result.standardOutput)["Name"] == "Changed")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }

    @Test func writesTheEditElsewhereWithDashO() throws {
        let directory = try TemporaryDirectory()
        let original = try PlistSamples.binary()
        try directory.write(original, to: "data.plist")
        let result = try SandboxProcess.run(["-remove", "Items.0", "-o", "edited.plist", "data.plist"], in: directory.url)
        #expect(result.status == 0)
        #expect(try directory.read("data.plist") == original)
        #expect(try value(of: "edited.plist", in: directory)["Items"] == ["pear"])
    }

    @Test(.enabled(if: FormatAvailability.json, "needs the JSON reader and writer"))
    func insertsJSONValuesAndKeepsJSONFilesJSON() throws {
        let directory = try TemporaryDirectory()
        try directory.write(PlistSamples.jsonSafe.encoded(as: .json), to: "data.json")
        let result = try SandboxProcess.run(["-insert", "Extra", "-json", #"{"a": [1, "two"]}"#, "data.json"], in: directory.url)
        #expect(result.status == 0, "\(result.standardError)")
        let edited = try directory.read("data.json")
        #expect(try PropertyListValue.decode(edited, as: .json)["Extra"] == ["a": [1, "two"]])
    }

    @Test(.enabled(if: FormatAvailability.json, "needs the JSON reader and writer"))
    func anEmptyJSONObjectStaysJSON() throws {
        // `{}` is also OpenStep; the edit must not turn a JSON file into OpenStep.
        let directory = try TemporaryDirectory()
        try directory.write(Data("{}".utf8), to: "empty.json")
        let result = try SandboxProcess.run(["-insert", "key", "-string", "value", "empty.json"], in: directory.url)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try PropertyListValue.decode(directory.read("empty.json"), as: .json) == ["key": "value"])
    }

    @Test(.enabled(if: FormatAvailability.xml, "needs the XML reader and writer"))
    func insertsXMLValuesAndKeepsXMLFilesXML() throws {
        let directory = try TemporaryDirectory()
        try directory.write(PlistSamples.document.encoded(as: .xml), to: "data.plist")
        let fragment = #"<plist version="1.0"><array><integer>1</integer><string>two</string></array></plist>"#
        let result = try SandboxProcess.run(["-insert", "Extra", "-xml", fragment, "data.plist"], in: directory.url)
        #expect(result.status == 0, "\(result.standardError)")
        let edited = try directory.read("data.plist")
        #expect(PropertyListFormat.detect(edited) == .xml)
        #expect(try PropertyListValue(data: edited)["Extra"] == [1, "two"])
    }
}
