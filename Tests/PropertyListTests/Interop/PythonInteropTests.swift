import Foundation
import TestSupport
import Testing
@testable import PropertyList

/// Interop in both directions with independent implementations: Python's
/// plistlib (binary and XML) and biplist (binary). Values we write are read
/// and rewritten by them; what they write is read back by us.
@Suite(.serialized) struct PythonInteropTests {
    static let sampleCount: UInt64 = 60

    /// Writes generated values, lets `library` read and rewrite each, and
    /// checks that its rewrite decodes to the original value.
    func roundTrip(library: String, formats: [PropertyListFormat], profile: RandomPropertyList.Profile, seedBase: UInt64,
                   keepsKeyOrder: Bool = true) throws {
        let temp = try TemporaryDirectory("interop")
        let directory = temp.url
        var originals: [String: PropertyListValue] = [:]
        for seed in 1...Self.sampleCount {
            var random = RandomPropertyList(seed: seedBase + seed, profile: profile)
            let value = random.value()
            for format in formats {
                let name = "\(seed).\(format == .binary ? "binary" : "xml")"
                try value.encoded(as: format).write(to: directory.appendingPathComponent(name))
                originals[name] = value
            }
        }
        let result = try PythonOracle.run(["roundtrip", library, directory.path])
        #expect(result.status == 0, "\(library) failed: \(result.standardError)")
        for (name, original) in originals.sorted(by: { $0.key < $1.key }) {
            let rewritten = try Data(contentsOf: directory.appendingPathComponent("\(name).\(library)"))
            var decoded = try PropertyListValue(data: rewritten)
            var expected = original.normalized(floorsDates: false, readsUIDDictionaries: name.hasSuffix(".xml"))
            if !keepsKeyOrder {
                decoded = decoded.sortingKeys()
                expected = expected.sortingKeys()
            }
            #expect(decoded.isIdentical(to: expected), "\(library) \(name): \(decoded.firstDifference(from: expected) ?? "")")
        }
    }

    @Test func plistlibReadsAndRewritesOurBinary() throws {
        try roundTrip(library: "plistlib", formats: [.binary], profile: .plistlibBinary, seedBase: 1000)
    }

    @Test func plistlibReadsAndRewritesOurXML() throws {
        try roundTrip(library: "plistlib", formats: [.xml], profile: .xml, seedBase: 2000)
    }

    @Test func biplistReadsAndRewritesOurBinary() throws {
        // biplist writes dictionary keys in its own order.
        try roundTrip(library: "biplist", formats: [.binary], profile: .biplist, seedBase: 3000, keepsKeyOrder: false)
    }

    static let fixedValue: PropertyListValue = [
        "name": "Possessions",
        "count": 42,
        "negative": -80_000_000_000,
        "huge": .integer(PropertyListInteger(UInt64.max)),
        "ratio": 0.1,
        "ok": true,
        "created": .date(Date(timeIntervalSince1970: 1_299_215_167)), // 2011-03-04T05:06:07Z
        "blob": .data(Data([0x00, 0x01, 0xFE, 0xFF])),
        "unicode": "Mässig, Maß 🙂",
        "list": [1, "two", 3.5, [], [:]],
    ]

    static let fixedDescription = #"{"dict": [["name", {"string": "Possessions"}], ["count", {"int": "42"}], ["negative", {"int": "-80000000000"}], ["huge", {"int": "18446744073709551615"}], ["ratio", {"real": "0.1"}], ["ok", {"bool": true}], ["created", {"date": "2011-03-04T05:06:07"}], ["blob", {"data": "AAH+/w=="}], ["unicode", {"string": "Mässig, Maß 🙂"}], ["list", {"array": [{"int": "1"}, {"string": "two"}, {"real": "3.5"}, {"array": []}, {"dict": []}]}]]}"#

    @Test(arguments: [PropertyListFormat.binary, .xml])
    func plistlibReadsExactlyWhatWeWrote(format: PropertyListFormat) throws {
        let temp = try TemporaryDirectory("interop")
        let directory = temp.url
        let file = directory.appendingPathComponent("fixed.plist")
        try Self.fixedValue.encoded(as: format).write(to: file)
        let result = try PythonOracle.run(["describe", file.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == Self.fixedDescription)
    }

    @Test func weReadExactlyWhatPythonWrote() throws {
        let temp = try TemporaryDirectory("interop")
        let directory = temp.url
        let result = try PythonOracle.run(["write", directory.path])
        #expect(result.status == 0, "\(result.standardError)")
        for name in ["fixed.plistlib.binary", "fixed.plistlib.xml"] {
            let value = try PropertyListValue(data: Data(contentsOf: directory.appendingPathComponent(name)))
            #expect(value == Self.fixedValue, "\(name): \(value.firstDifference(from: Self.fixedValue) ?? "")")
        }
        var withoutHuge = try #require(Self.fixedValue.dictionaryValue)
        withoutHuge.removeValue(forKey: "huge")
        let biplistValue = try PropertyListValue(data: Data(contentsOf: directory.appendingPathComponent("fixed.biplist.binary")))
        #expect(biplistValue.sortingKeys() == PropertyListValue.dictionary(withoutHuge).sortingKeys())
    }
}
