import Foundation
import KeyedArchive
import OrderedCollections
import PropertyList
import Testing

/// The archives Apple's Foundation wrote decode to the values their names
/// and the programs that wrote them describe.
struct AppleFixtureValueTests {
    func root(_ name: String) throws -> ArchivedValue {
        try KeyedUnarchiver(data: ArchiveFixtures.data(name)).decodeRootGraph()
    }

    func typed<T: KeyedArchiveRepresentable>(_ type: T.Type, _ name: String) throws -> T {
        try KeyedUnarchiver.unarchive(type, from: ArchiveFixtures.data(name))
    }

    @Test(arguments: ArchiveFixtures.appleWritten)
    func appleArchiveDecodesWithoutError(name: String) throws {
        let value = try root(name)
        #expect(value != .null)
    }

    @Test func customClassWithPrimitiveFields() throws {
        // main.m: Note with encodeObject title/author/array, encodeInt date, encodeBool published.
        let note = try root("mw_nska_note.plist")
        #expect(note.object?.className == "Note")
        #expect(note["title"]?.stringValue == "Some cool title")
        #expect(note["author"]?.stringValue == "Michael Wright")
        #expect(note["date"] == .scalar(.integer(2025)))
        #expect(note["published"] == .scalar(.bool(true)))
        let array = try #require(note["array"]?.elements)
        #expect(array.map { $0.stringValue } == ["Hello, World!", nil, nil])
        #expect(array[1].numberValue == .integer(42))
        #expect(array[2].numberValue == .bool(true))
    }

    @Test func plainStringArraysAndDictionaries() throws {
        #expect(try typed(String.self, "mw_nska_plainString.plist") == "Some string!")
        let data = try typed(Data.self, "mw_nska_nsData.plist")
        #expect(String(decoding: data, as: UTF8.self) == "Some data!")
        let nested = try root("mw_nska_simpleArray.plist")
        #expect(nested.elements?.first?.stringValue == "value1")
        #expect(nested.elements?.last?.elements?.map(\.stringValue) == ["innerValue3", "innerValue4"])
        let dictionary = try typed([String: PropertyListValue].self, "mw_nska_simpleDict.plist")
        #expect(dictionary["First key"] == .string("First value"))
        #expect(dictionary["Second key"] == .string("Second value"))
        #expect(dictionary["Array key"] == .array([1, 2, 3]))
    }

    @Test func foundationValueClasses() throws {
        #expect(try typed([String].self, "scf_NSKeyedUnarchiver-ArrayTest.plist") == ["baa", "baa", "black", "sheep"])
        #expect(try typed(OrderedSet<String>.self, "scf_NSKeyedUnarchiver-OrderedSetTest.plist") == ["valgeir", "nico", "puzzle"])
        let url = try typed(URL.self, "scf_NSKeyedUnarchiver-URLTest.plist")
        #expect(url.absoluteString == "https://www.example.com/foo.xml")
        #expect(url.relativeString == "foo.xml")
        #expect(url.baseURL?.absoluteString == "https://www.example.com")
        let uuid = try typed(UUID.self, "scf_NSKeyedUnarchiver-UUIDTest.plist")
        #expect(uuid.uuidString == "0AD863BA-7584-40CF-8896-BD87B3280C34")
        #expect(try typed(KeyedArchiveSpecialValue.self, "scf_NSKeyedUnarchiver-RectTest.plist") == .rect(x: 400, y: 300, width: 200, height: 300))
        #expect(try typed(KeyedArchiveSpecialValue.self, "scf_NSKeyedUnarchiver-RangeTest.plist") == .range(location: 97345, length: 98345))
        #expect(try typed(KeyedArchiveSpecialValue.self, "scf_NSKeyedUnarchiver-EdgeInsetsTest.plist") == .edgeInsets(top: 1, left: 2, bottom: 3, right: 4))
    }

    @Test func complexDictionaryWithNullURLAndUUID() throws {
        let value = try root("scf_NSKeyedUnarchiver-ComplexTest.plist")
        guard case .dictionary(let entries)? = value.foundationValue else {
            Issue.record("not a dictionary")
            return
        }
        let byKey = Dictionary(uniqueKeysWithValues: entries.map { ($0.key.stringValue ?? "?", $0.value) })
        #expect(byKey["string"]?.stringValue == "hello")
        let array = try #require(byKey["array"]?.elements)
        #expect(array[0].foundationValue == .null)
        #expect(array[1].stringValue == "hello")
        #expect(array[2].intValue == 34545)
        // The "hello" string is one shared $objects entry, referenced twice.
        #expect(array[1].object === byKey["string"]?.object)
        guard case .url(let url)? = byKey["url"]?.foundationValue else { throw Mismatch("url") }
        #expect(url.absoluteString == "https://www.swift.org/index.xml")
        guard case .uuid(let uuid)? = byKey["uuid"]?.foundationValue else { throw Mismatch("uuid") }
        #expect(uuid.uuidString == "71DC068E-3420-45FF-919E-3A267D55EC22")
    }

    @Test func setsOrderedSetsAndCountedSets() throws {
        #expect(try typed(Set<Int>.self, "scf_macOS1014_NSSet-Numbers.archive") == [1, 2, 3, 4, 5])
        #expect(try typed(Set<Int>.self, "scf_macOS1014_NSSet-Empty.archive").isEmpty)
        #expect(try typed(Set<Int>.self, "scf_macOS1014_NSMutableSet-Numbers.archive").count > 0)
        #expect(try typed(OrderedSet<Int>.self, "scf_macOS1014_NSOrderedSet-Numbers.archive") == [1, 2, 3, 4, 5])
        #expect(try typed(OrderedSet<Int>.self, "scf_macOS1014_NSMutableOrderedSet-Empty.archive").isEmpty)
        let several = try typed(KeyedArchiveCountedSet<Int>.self, "scf_macOS1014_NSCountedSet-NumbersAppearingSeveralTimes.archive")
        #expect(Set(several.counts.keys) == [1, 2, 3, 4, 5])
        #expect(several.counts.values.allSatisfy { $0 == 5 })
        let once = try typed(KeyedArchiveCountedSet<Int>.self, "scf_macOS1014_NSCountedSet-NumbersAppearingOnce.archive")
        #expect(once.counts.values.allSatisfy { $0 == 1 })
        #expect(try typed(KeyedArchiveCountedSet<Int>.self, "scf_macOS1014_NSCountedSet-Empty.archive").counts.isEmpty)
    }

    @Test func mutableStringsInsideAttributedStrings() throws {
        let text = try root("scf_macOS1014_NSMutableAttributedString.archive")
        #expect(text.object?.archiveClass?.classes == ["NSMutableAttributedString", "NSAttributedString", "NSObject"])
        #expect(text["NSString"]?.stringValue == "0123456789")
        #expect(text["NSString"]?.object?.className == "NSMutableString")
        let attributes = try #require(text["NSAttributes"]?.elements)
        #expect(attributes.count == 4)
        // Objects 12 and 15 are equal dictionaries but distinct objects; keys are shared strings.
        #expect(attributes[2].object !== attributes[3].object)
    }

    @Test func pyObjCStringSubclassReadsThroughItsSuperclass() throws {
        let value = try root("cpython_TESTDATA_keyed_archive.bplist")
        #expect(value.object?.archiveClass?.hints == ["OC_PythonString", "NSString"])
        #expect(value.stringValue == "KeyArchive UID Test")
        #expect(try typed(String.self, "cpython_TESTDATA_keyed_archive.bplist") == "KeyArchive UID Test")
    }

    @Test func oldStyleConcreteValueKeepsUnkeyedValues() throws {
        let value = try root("scf_NSKeyedUnarchiver-ConcreteValueTest.plist")
        let object = try #require(value.object)
        #expect(object.className == "NSValue")
        #expect(object.unkeyed.count == 2)
        #expect(object.unkeyed[0].stringValue == "[3i]")
        let array = try #require(object.unkeyed[1].object)
        #expect(array.className == "_NSKeyedCoderOldStyleArray")
        #expect(array.unkeyed == [.scalar(1), .scalar(2), .scalar(3)])
        #expect(array["NS.type"] == .scalar(105))
    }

    @Test func unknownClassesStayGeneric() throws {
        let transform = try root("mw_nska_NSAffineTransform.plist")
        #expect(transform.object?.className == "NSAffineTransform")
        #expect(transform.object?.foundationValue == nil)
        #expect(transform["NSTransformStruct"]?.dataValue?.count == 24)
    }

    @Test func macOSFormatterArchivesExposeTheirFields() throws {
        for name in ArchiveFixtures.names where name.hasPrefix("scf_macOS1014_") {
            let value = try root(name)
            let classes = try #require(value.object?.archiveClass?.classes)
            // The class in the file name (before the variant suffix) is in the chain.
            let stem = String(name.dropFirst("scf_macOS1014_".count).prefix { $0 != "-" && $0 != "." })
            #expect(classes.contains(stem) || classes.contains("NS" + stem), "\(name): \(classes)")
        }
    }
}

struct Mismatch: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
