import Foundation
import KeyedArchive
import OrderedCollections
import PropertyList
import TestSupport
import Testing

/// Archives this module writes are read correctly by two independent
/// Python readers (nska-deserialize and NSKeyedUnArchiver).
@Suite(.serialized)
struct PythonReaderInteropTests {
    static let created = Date(timeIntervalSince1970: 1_700_000_000)

    /// name → (archive bytes, expected tree for both readers, or per reader).
    static func cases() throws -> [(name: String, data: Data, expected: [String: String])] {
        // nska-deserialize shows nil as "" (it does so for Apple's archives too).
        func both(_ json: String) -> [String: String] {
            ["nska": json.replacingOccurrences(of: "null", with: #"{"s":""}"#), "nskeyedunarchiver": json]
        }
        let shared = Node(name: "shared")
        let possessions = [
            Possession(possessionName: "Red Sofa", serialNumber: "A1B2C", dateCreated: created, imageKey: "8E3F", valueInDollars: 100),
            Possession(possessionName: "Spork", serialNumber: nil, dateCreated: created, imageKey: nil, valueInDollars: -3),
        ]
        let possession = #"{"o":{"possessionName":{"s":"Red Sofa"},"serialNumber":{"s":"A1B2C"},"dateCreated":{"t":"2023-11-14T22:13:20"},"imageKey":{"s":"8E3F"},"valueInDollars":{"i":100}}}"#
        let spork = #"{"o":{"possessionName":{"s":"Spork"},"serialNumber":null,"dateCreated":{"t":"2023-11-14T22:13:20"},"imageKey":null,"valueInDollars":{"i":-3}}}"#
        let mixed: [String: PropertyListValue] = [
            "flags": [true, 1, 1.0, false, 0, -7],
            "blob": .data(Data([0, 1, 2, 255])),
            "when": .date(created),
            "nested": ["a": ["x", "y"], "b": [:]],
            "text": "héllo ✓",
        ]
        let mixedTree = #"""
        {"o":{"flags":{"a":[{"b":true},{"i":1},{"r":1.0},{"b":false},{"i":0},{"i":-7}]},"blob":{"d":"AAEC/w=="},
         "when":{"t":"2023-11-14T22:13:20"},"nested":{"o":{"a":{"a":[{"s":"x"},{"s":"y"}]},"b":{"o":{}}}},"text":{"s":"héllo ✓"}}}
        """#
        let mbFile = ArchivedObject(className: "MBFile", fields: [
            "RelativePath": .string("Library/Preferences/a.plist"), "Mode": .integer(0o100644), "Size": .integer(42),
            "Birth": .integer(1_700_000_000), "Target": .null, "Digest": .data(Data([0xAB, 0xCD])),
        ])
        let mbTree = #"{"o":{"RelativePath":{"s":"Library/Preferences/a.plist"},"Mode":{"i":33188},"Size":{"i":42},"Birth":{"i":1700000000},"Target":null,"Digest":{"d":"q80="}}}"#
        return [
            ("possessions.data", try KeyedArchiver.archivedData(withRootObject: possessions), both(#"{"a":[\#(possession),\#(spork)]}"#)),
            // NSKeyedUnArchiver does not read XML archives at all (not Apple's either).
            ("possessions-xml.data", try KeyedArchiver.archivedData(withRootObject: possessions, format: .xml),
             both(#"{"a":[\#(possession),\#(spork)]}"#).filter { $0.key == "nska" }),
            ("mixed.archive", try KeyedArchiver.archivedData(withRootObject: mixed), both(mixedTree)),
            ("shared.archive", try KeyedArchiver.archivedData(withRootObject: [shared, Node(name: "a", next: shared), shared]),
             both(#"{"a":[{"o":{"name":{"s":"shared"},"next":null}},{"o":{"name":{"s":"a"},"next":{"o":{"name":{"s":"shared"},"next":null}}}},{"o":{"name":{"s":"shared"},"next":null}}]}"#)),
            ("mbfile.archive", try KeyedArchiver.archivedData(withRootObject: mbFile), both(mbTree)),
            ("codable.archive", try KeyedArchiver.archivedData(encoding: ["launches": 3, "name": 7]), both(#"{"o":{"launches":{"i":3},"name":{"i":7}}}"#)),
            ("orderedset.archive", try KeyedArchiver.archivedData(withRootObject: OrderedSet(["z", "a"])),
             both(#"{"o":{"NS.object.0":{"s":"z"},"NS.object.1":{"s":"a"}}}"#)),
            // nska-deserialize wraps a string root in {"root": …}, as for Apple's mw_nska_plainString.plist.
            ("mutablestring.archive", try KeyedArchiver.archivedData(withRootObject: KeyedArchiveMutable("text")),
             ["nska": #"{"o":{"root":{"s":"text"}}}"#, "nskeyedunarchiver": #"{"s":"text"}"#]),
        ]
    }

    @Test func pythonReadersReadWhatWeWrite() throws {
        let directory = try TemporaryDirectory("archive-interop")
        let cases = try Self.cases()
        for item in cases { try directory.write(item.data, to: item.name) }
        let results = try ArchiveOracle.describe(cases.map { directory.file($0.name) })
        for item in cases {
            for (library, expected) in item.expected {
                let actual = results[item.name]?[library]
                #expect(actual == (try ArchiveOracle.canonical(json: expected)), "\(library) on \(item.name): \(actual ?? "nothing")")
            }
        }
    }
}
