import Foundation
import Preferences
import PropertyList
import TestSupport
import Testing

/// The file: binary on write, any plist format on read, damage survived,
/// and read by Python's plistlib.
@Suite struct StorageFormatTests {
    @Test func theFileIsABinaryPlistAtLibraryPreferences() throws {
        let fixture = try PreferencesFixture()
        let prefs = try fixture.open()
        prefs.set(true, forKey: "TermsAccepted")
        try prefs.synchronize()
        #expect(prefs.domainPath.hasSuffix("Library/Preferences/com.example.app.plist"))
        let bytes = try Data(contentsOf: fixture.domainFile)
        #expect(PropertyListFormat.detect(bytes) == .binary)
    }

    @Test func anXMLPrefsFileIsReadAndRewrittenInBinary() throws {
        let fixture = try PreferencesFixture()
        try fixture.writeFile(["Name": "Ann", "Age": 33], to: fixture.domainFile, format: .xml)
        let prefs = try fixture.open()
        #expect(prefs.string(forKey: "Name") == "Ann")
        prefs.set(34, forKey: "Age")
        try prefs.synchronize()
        let bytes = try Data(contentsOf: fixture.domainFile)
        #expect(PropertyListFormat.detect(bytes) == .binary)
        #expect(try fixture.fileContents() == ["Name": "Ann", "Age": 34])
    }

    @Test func aDamagedFileReadsAsEmptyAndIsReported() throws {
        let fixture = try PreferencesFixture()
        try FileManager.default.createDirectory(at: fixture.preferencesDirectory, withIntermediateDirectories: true)
        try Data("bplist00 garbage".utf8).write(to: fixture.domainFile)
        let prefs = try fixture.open()
        #expect(prefs.object(forKey: "anything") == nil)
        #expect(prefs.lastProblem?.code == .corruptFile)
        prefs.set(1, forKey: "fresh")
        try prefs.synchronize()
        #expect(try fixture.fileContents() == ["fresh": 1])
        #expect(prefs.lastProblem == nil)
    }

    @Test func aFileThatIsNotADictionaryIsCorrupt() throws {
        let fixture = try PreferencesFixture()
        try fixture.writeFile(["not", "a", "dictionary"], to: fixture.domainFile)
        let prefs = try fixture.open()
        #expect(prefs.lastProblem?.code == .corruptFile)
    }

    @Test func pythonPlistlibReadsTheFile() throws {
        let fixture = try PreferencesFixture()
        let prefs = try fixture.open()
        prefs.set(true, forKey: "TermsAccepted")
        prefs.set(3, forKey: "Launches")
        prefs.set(1.5, forKey: "Scale")
        prefs.set("Ann ✓", forKey: "Name")
        prefs.set(Data([0xDE, 0xAD]), forKey: "Blob")
        prefs.set(Date(timeIntervalSince1970: 1_700_000_000), forKey: "When")
        prefs.set(["a", "b"], forKey: "List")
        prefs.set(["nested": PropertyListValue.integer(-1)], forKey: "Dict")
        try prefs.synchronize()

        let script = """
            import plistlib, sys, json, datetime
            with open(sys.argv[1], 'rb') as f:
                data = f.read()
            assert data.startswith(b'bplist00'), 'not binary'
            value = plistlib.loads(data)
            def plain(v):
                if isinstance(v, bytes): return v.hex()
                if isinstance(v, datetime.datetime): return v.replace(tzinfo=datetime.timezone.utc).timestamp()
                if isinstance(v, dict): return {k: plain(x) for k, x in v.items()}
                if isinstance(v, list): return [plain(x) for x in v]
                return v
            print(json.dumps(plain(value), sort_keys=True, ensure_ascii=False))
            """
        let output = try runPython(script, arguments: [fixture.domainFile.path])
        #expect(output == """
            {"Blob": "dead", "Dict": {"nested": -1}, "Launches": 3, "List": ["a", "b"], "Name": "Ann ✓", \
            "Scale": 1.5, "TermsAccepted": true, "When": 1700000000.0}
            """)
    }

    @Test func theFileKeepsItsKeyOrderAcrossWrites() throws {
        let fixture = try PreferencesFixture()
        try fixture.writeFile(["z": 1, "a": 2, "m": 3], to: fixture.domainFile)
        let prefs = try fixture.open()
        prefs.set(20, forKey: "a")
        prefs.set(4, forKey: "b")
        try prefs.synchronize()
        #expect(try fixture.fileContents()?.dictionaryValue?.keys.elements == ["z", "a", "m", "b"])
    }

    private func runPython(_ script: String, arguments: [String]) throws -> String {
        let result = try ChildProcess.python(["-c", script] + arguments)
        #expect(result.status == 0, "python3 failed: \(result.standardError)")
        return result.output.trimmingCharacters(in: .newlines)
    }
}
