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

/// Issue 14, findings 12, 13 and 21, through the command.
@Suite struct ArchiveCommandHostileInputTests {
    func run(_ arguments: [String]) throws -> SandboxProcess.Result {
        try SandboxProcess.run(arguments, input: Data(), in: ArchiveCommandTests.archives, subcommand: "archive")
    }

    /// An archive whose `$objects` table is valid but whose root reference
    /// points past it: the error appears only when the graph is read.
    static func danglingRoot() throws -> Data {
        let archive: PropertyListValue = [
            "$archiver": "NSKeyedArchiver", "$version": 100_000,
            "$top": ["root": .uid(PropertyListUID(7))], "$objects": ["$null"],
        ]
        return try archive.encoded(as: .binary)
    }

    @Test(arguments: ["print", "json"])
    func anUnreadableGraphIsAnErrorOnStandardErrorWithStatusOne(command: String) throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(try Self.danglingRoot(), to: "dangling.archive")
        let result = try run([command, file.path])
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.hasPrefix("\(file.path): "))
    }

    @Test func datesKeepTheirFractionOfASecond() throws {
        let directory = try TemporaryDirectory()
        let date = Date(timeIntervalSinceReferenceDate: 597_455_141.68)
        let file = try directory.write(try KeyedArchiver.archivedData(withRootObject: [PropertyListValue.date(date)]), to: "date.archive")
        let print = try run(["print", file.path])
        #expect(print.output.contains("2019-12-07T23:45:41.68Z"), "\(print.output)")
        let json = try run(["json", file.path])
        #expect(json.output.contains("\"$date\": \"2019-12-07T23:45:41.68Z\""), "\(json.output)")
    }
}

/// A keyed archive whose root object has a field holding nested plain
/// arrays that share their elements (2^levels leaves in a few hundred
/// bytes), laid out by hand: the binary writer would expand them.
enum PlainBombArchive {
    static func make(levels: Int) -> Data {
        var objects: [[UInt8]] = []
        func ascii(_ text: String) -> [UInt8] {
            let bytes = Array(text.utf8)
            return (bytes.count < 15 ? [0x50 | UInt8(bytes.count)] : [0x5F, 0x10, UInt8(bytes.count)]) + bytes
        }
        objects.append([0xD4, 1, 2, 3, 4, 5, 6, 7, 8])               // 0: the archive
        for key in ["$archiver", "$version", "$top", "$objects"] { objects.append(ascii(key)) }  // 1…4
        objects.append(ascii("NSKeyedArchiver"))                     // 5
        objects.append([0x12, 0x00, 0x01, 0x86, 0xA0])               // 6: 100000
        objects.append([0xD1, 9, 10])                                // 7: $top
        objects.append([0xA3, 11, 12, 13])                           // 8: $objects
        objects.append(ascii("root"))                                // 9
        objects.append([0x80, 0x01])                                 // 10: UID 1
        objects.append(ascii("$null"))                               // 11
        objects.append([0xD2, 14, 16, 15, 17])                       // 12: the object
        objects.append([0xD2, 18, 20, 19, 21])                       // 13: its class
        objects.append(ascii("$class"))                              // 14
        objects.append([0x80, 0x02])                                 // 15: UID 2
        objects.append(ascii("field"))                               // 16
        for level in 0..<levels {                                    // 17…: [next, next]
            let next = UInt8(17 + level + 1)
            objects.append([0xA2, next, next])
        }
        objects.append([0x10, 0x2A])                                 // the leaf: 42
        // The class dictionary's keys and values come after the bomb.
        let base = UInt8(objects.count)
        objects[13] = [0xD2, base, base + 2, base + 1, base + 3]
        objects.append(ascii("$classname"))
        objects.append(ascii("Holder"))
        objects.append(ascii("$classes"))
        objects.append([0xA1, base + 1])
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects { offsets.append(out.count); out += object }
        let table = out.count
        for offset in offsets { out += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
        out += [0, 0, 0, 0, 0, 0, 2, 1]
        out += withUnsafeBytes(of: UInt64(objects.count).bigEndian, Array.init)
        out += withUnsafeBytes(of: UInt64(0).bigEndian, Array.init)
        out += withUnsafeBytes(of: UInt64(table).bigEndian, Array.init)
        return Data(out)
    }
}

@Suite struct ArchiveOutputLimitTests {
    @Test(arguments: [["print"], ["json"], ["json", "--raw"]])
    func aSharedPlainValueBombIsRefusedQuickly(arguments: [String]) throws {
        let directory = try TemporaryDirectory()
        let data = PlainBombArchive.make(levels: 40)
        #expect(data.count < 1024)
        let file = try directory.write(data, to: "bomb.archive")
        let started = ContinuousClock.now
        let result = try SandboxProcess.run(arguments + [file.path], input: Data(), in: ArchiveCommandTests.archives,
                                            subcommand: "archive")
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.hasPrefix("\(file.path): "))
        #expect(ContinuousClock.now - started < .seconds(60))
    }
}
