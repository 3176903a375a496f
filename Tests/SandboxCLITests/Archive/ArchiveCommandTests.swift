import Foundation
import KeyedArchive
import PropertyList
import TestSupport
import Testing

/// `sandbox archive print` and `sandbox archive json`, run as a process.
@Suite struct ArchiveCommandTests {
    static let archives = SandboxProcess.fixtures.appendingPathComponent("keyed_archive")

    func run(_ arguments: [String], input: Data = Data()) throws -> SandboxProcess.Result {
        try SandboxProcess.run(arguments, input: input, in: Self.archives, subcommand: "archive")
    }

    @Test func printShowsClassesValuesAndFields() throws {
        let result = try run(["print", "mw_nska_note.plist"])
        #expect(result.status == 0)
        #expect(result.output.contains("root: <Note> (NSObject)"))
        #expect(result.output.contains("  title: \"Some cool title\""))
        #expect(result.output.contains("  array: <NSArray> (3 elements)"))
        #expect(result.output.contains("    [1]: 42"))
        #expect(result.output.contains("  published: true"))
    }

    @Test func printMarksCyclesAndSharedObjects() throws {
        let cycle = try run(["print", "mw_nska_circularReference.plist"])
        #expect(cycle.output == "root: <NSMutableArray> #1 (1 elements)\n  [0]: -> #1 (cycle)\n")
        let directory = try TemporaryDirectory()
        let shared = ArchivedObject(className: "Leaf", fields: ["n": .integer(1)])
        let root = ArchivedObject(className: "Pair", fields: ["left": .object(shared), "right": .object(shared)])
        let file = try directory.write(try KeyedArchiver.archivedData(withRootObject: root), to: "pair.archive")
        let result = try run(["print", file.path])
        #expect(result.output == """
            root: <Pair> (NSObject)
              left: <Leaf> #2 (NSObject)
                n: 1
              right: -> #2 (shared)

            """)
    }

    @Test func printKeepsKindsApart() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(try KeyedArchiver.archivedData(withRootObject: [true, 1, 1.0] as [PropertyListValue]), to: "kinds.archive")
        let result = try run(["print", file.path])
        #expect(result.output.contains("[0]: true\n  [1]: 1\n  [2]: 1.0\n"))
    }

    @Test func jsonIsStableAndTagged() throws {
        let first = try run(["json", "scf_NSKeyedUnarchiver-ComplexTest.plist"])
        let second = try run(["json", "scf_NSKeyedUnarchiver-ComplexTest.plist"])
        #expect(first.status == 0)
        #expect(first.output == second.output)
        let json = try #require(try JSONSerialization.jsonObject(with: first.standardOutput) as? [String: Any])
        let root = try #require((json["top"] as? [String: Any])?["root"] as? [String: Any])
        #expect(root["$class"] as? String == "NSDictionary")
        #expect(root["$id"] as? Int == 1)
        let cycle = try run(["json", "mw_nska_circularReference.plist"])
        #expect(cycle.output.contains("\"$ref\": 1"))
    }

    @Test func jsonRawShowsTheObjectsTable() throws {
        let result = try run(["json", "--raw", "mw_nska_plainString.plist"])
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        #expect(json["$archiver"] as? String == "NSKeyedArchiver")
        #expect(json["$objects"] as? [String] == ["$null", "Some string!"])
        #expect(result.output.contains("\"root\": {\"CF$UID\": 1}"))
    }

    @Test func standardInputAndDataAndDates() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: [.data(Data([1, 2])), .date(Date(timeIntervalSince1970: 0))] as [PropertyListValue])
        let json = try run(["json", "-"], input: data)
        #expect(json.output.contains("\"$data\": \"AQI=\""))
        #expect(json.output.contains("\"$date\": \"1970-01-01T00:00:00Z\""))
    }

    @Test(arguments: ["print", "json"])
    func brokenArchivesFailWithAReason(command: String) throws {
        let directory = try TemporaryDirectory()
        let notArchive = try directory.write(try PropertyListValue.dictionary(["$archiver": "Other"]).encoded(as: .binary), to: "other.plist")
        let result = try run([command, notArchive.path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("other.plist: keyed archive: $archiver is \"Other\""))
        let missing = try run([command, "/nonexistent.archive"])
        #expect(missing.status == 1)
        #expect(missing.standardError.hasPrefix("/nonexistent.archive: "))
    }

    @Test func everyFixturePrintsAndConverts() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.archives.path).sorted()
        for name in names {
            let print = try run(["print", name])
            let json = try run(["json", name])
            #expect(print.status == 0 && json.status == 0, "\(name): \(print.standardError) \(json.standardError)")
        }
    }
}
