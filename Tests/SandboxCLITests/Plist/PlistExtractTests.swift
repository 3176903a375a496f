import Foundation
import PropertyList
import TestSupport
import Testing

@Suite struct PlistExtractTests {
    private func extract(_ arguments: [String], from value: PropertyListValue = PlistSamples.document) throws -> SandboxProcess.Result {
        let directory = try TemporaryDirectory()
        try directory.write(PlistSamples.binary(value), to: "data.plist")
        return try SandboxProcess.run(arguments + ["data.plist"], in: directory.url)
    }

    @Test(arguments: [
        ("Name", "Possessions\n"), ("Count", "3\n"), ("Ratio", "0.5\n"), ("Enabled", "true\n"),
        ("When", "2004-10-26T10:33:33Z\n"), ("Blob", "3q2+7w==\n"), ("Items", "2\n"), ("Items.1", "pear\n"),
        ("Nested.Deeper.Value", "42\n"), (#"com\.example\.key"#, "dotted\n"),
    ])
    func printsRawValues(keyPath: String, expected: String) throws {
        let result = try extract(["-extract", keyPath, "raw"])
        #expect(result.status == 0)
        #expect(result.output == expected)
        #expect(result.standardError.isEmpty)
    }

    @Test func printsADictionarysSortedKeysRaw() throws {
        let result = try extract(["-extract", "Root", "raw"], from: ["Root": PlistSamples.document])
        #expect(result.output == "Blob\ncom.example.key\nCount\nEnabled\nItems\nName\nNested\nRatio\nWhen\n")
    }

    @Test func omitsTheNewlineOnRequest() throws {
        let result = try extract(["-extract", "Name", "raw", "-n"])
        #expect(result.output == "Possessions")
    }

    @Test func extractsAPropertyListToStandardOutput() throws {
        let result = try extract(["-extract", "Nested", "binary1"])
        #expect(result.status == 0)
        #expect(try PropertyListValue(data: result.standardOutput) == ["Deeper": ["Value": 42]])
    }

    @Test func extractsToAFileWithDashO() throws {
        let directory = try TemporaryDirectory()
        try directory.write(PlistSamples.binary(), to: "data.plist")
        let result = try SandboxProcess.run(["-extract", "Items", "binary1", "-o", "items.plist", "data.plist"], in: directory.url)
        #expect(result.status == 0 && result.standardOutput.isEmpty)
        #expect(try PropertyListValue(data: directory.read("items.plist")) == ["apple", "pear"])
        #expect(try directory.read("data.plist") == PlistSamples.binary())
    }

    @Test func aMissingKeyPathFailsThatFile() throws {
        let result = try extract(["-extract", "Items.5", "raw"])
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.errorLines == ["data.plist: no value at key path Items.5"])
    }

    @Test func checksTheExpectedType() throws {
        let good = try extract(["-extract", "Count", "raw", "-expect", "integer"])
        #expect(good.status == 0 && good.output == "3\n")
        let bad = try extract(["-extract", "Count", "raw", "-expect", "string"])
        #expect(bad.status == 1)
        #expect(bad.errorLines == ["data.plist: the value at key path Count is an integer, not a string"])
    }

    @Test func readsStandardInput() throws {
        let directory = try TemporaryDirectory()
        let result = try SandboxProcess.run(["-extract", "Items.0", "raw", "-"], input: PlistSamples.binary(), in: directory.url)
        #expect(result.status == 0)
        #expect(result.output == "apple\n")
    }

    @Test(arguments: [
        ("Name", "string"), ("Count", "integer"), ("Ratio", "float"), ("Enabled", "bool"), ("When", "date"),
        ("Blob", "data"), ("Items", "array"), ("Nested", "dictionary"),
    ])
    func printsTypes(keyPath: String, type: String) throws {
        let result = try extract(["-type", keyPath])
        #expect(result.status == 0)
        #expect(result.output == type + "\n")
    }

    @Test(.enabled(if: FormatAvailability.json, "needs the JSON reader and writer"))
    func extractsJSON() throws {
        let result = try extract(["-extract", "Nested", "json", "-o", "-"])
        #expect(result.status == 0)
        #expect(try PropertyListValue.decode(result.standardOutput, as: .json) == ["Deeper": ["Value": 42]])
    }

    @Test(.enabled(if: FormatAvailability.xml, "needs the XML reader and writer"))
    func extractsXML() throws {
        let result = try extract(["-extract", "Items", "xml1"])
        #expect(result.status == 0)
        #expect(result.output.contains("<string>pear</string>"))
        #expect(try PropertyListValue(data: result.standardOutput) == ["apple", "pear"])
    }
}
