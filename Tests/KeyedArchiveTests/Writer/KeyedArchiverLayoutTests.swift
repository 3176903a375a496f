import Foundation
import KeyedArchive
import OrderedCollections
import PropertyList
import Testing

/// What the archiver writes matches Apple's layout key for key.
struct KeyedArchiverLayoutTests {
    func table<T: KeyedArchiveRepresentable>(_ root: T) throws -> KeyedArchiveTable {
        try KeyedArchiveTable(data: KeyedArchiver.archivedData(withRootObject: root))
    }

    @Test func envelopeNullAndRoot() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: "Some string!")
        let plist = try PropertyListValue(data: data)
        #expect(plist["$archiver"] == "NSKeyedArchiver")
        #expect(plist["$version"] == 100000)
        #expect(plist["$top"] == .dictionary(["root": .uid(PropertyListUID(1))]))
        #expect(plist["$objects"] == ["$null", "Some string!"])
        #expect(data.starts(with: Array("bplist00".utf8)))
    }

    @Test func objectThenChildrenThenClassLikeApple() throws {
        // The same shape as Apple's mw_nska_note.plist.
        let note = ArchivedObject(className: "Note", fields: [
            "title": .string("Some cool title"), "author": .string("Michael Wright"),
            "date": .integer(2025), "published": .bool(true),
            "array": try ArchivedValue(archiving: ["Hello, World!", 42, true] as [PropertyListValue]),
        ])
        let objects = try table(note).objects
        #expect(objects.count == 10)
        #expect(objects[0] == "$null")
        #expect(objects[1]["$class"] == .uid(PropertyListUID(9)))
        #expect(objects[1]["date"] == 2025)
        #expect(objects[1]["published"] == true)
        #expect(objects[2] == "Some cool title")
        #expect(objects[4]["NS.objects"] == [.uid(PropertyListUID(5)), .uid(PropertyListUID(6)), .uid(PropertyListUID(7))])
        #expect(objects[6] == 42)
        #expect(objects[7] == true)
        #expect(objects[8] == .dictionary(["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]]))
        #expect(objects[9] == .dictionary(["$classname": "Note", "$classes": ["Note", "NSObject"]]))
    }

    @Test func classDictionaryWrittenOncePerClass() throws {
        let nodes = (0..<5).map { Node(name: "n\($0)") }
        let objects = try table(nodes).objects
        let classDictionaries = objects.filter { $0["$classname"] != nil }
        #expect(classDictionaries.count == 2)   // Node and NSArray
    }

    @Test func trueOneAndOnePointZeroStayDistinct() throws {
        let values: [PropertyListValue] = [true, 1, 1.0, .integer(1), .float(1)]
        let data = try KeyedArchiver.archivedData(withRootObject: values)
        let objects = try KeyedArchiveTable(data: data).objects
        let references = try #require(objects[1]["NS.objects"]?.arrayValue)
        #expect(Set(references).count == 4)   // the two integer 1s are one object
        let back = try KeyedUnarchiver.unarchive([PropertyListValue].self, from: data)
        #expect(back == [true, 1, 1.0, 1, .float(1)])
        #expect(try KeyedUnarchiver.unarchive([Bool].self, from: KeyedArchiver.archivedData(withRootObject: [true, false])) == [true, false])
    }

    @Test func sharedInstancesWrittenOnceReadAsOne() throws {
        let shared = Node(name: "shared")
        let list = [Node(name: "a", next: shared), Node(name: "b", next: shared), shared]
        let data = try KeyedArchiver.archivedData(withRootObject: list)
        let objects = try KeyedArchiveTable(data: data).objects
        #expect(objects.filter { $0["name"] != nil }.count == 3)
        let back = try KeyedUnarchiver.unarchive([Node].self, from: data)
        #expect(back[0].next === back[1].next)
        #expect(back[0].next === back[2])
    }

    @Test func structsAreWrittenWhereverTheyOccur() throws {
        let inventory = Inventory(owner: "o", tags: [], counts: [:], history: [], note: nil, flag: false, ratio: 0, big: 0)
        let objects = try table([inventory, inventory]).objects
        #expect(objects.filter { $0["owner"] != nil }.count == 2)
    }

    @Test func dollarKeysAreEscapedAndUnkeyedValuesNumbered() throws {
        let object = ArchivedObject(className: "Odd", fields: ["$weird": .integer(1), "plain": .integer(2)],
                                    unkeyed: [.string("first"), .integer(7)])
        let data = try KeyedArchiver.archivedData(withRootObject: object)
        let stored = try KeyedArchiveTable(data: data).objects[1]
        #expect(stored["$$weird"] == 1)
        #expect(stored["plain"] == 2)
        #expect(stored["$0"] == .uid(PropertyListUID(2)))
        #expect(stored["$1"] == 7)
        let back = try #require(try KeyedUnarchiver(data: data).decodeRootGraph().object)
        #expect(back.fields.keys.elements == ["$weird", "plain"])
        #expect(back.unkeyed.count == 2)
        #expect(back.unkeyed[0].stringValue == "first")
    }

    @Test func typedCoderEscapesToo() throws {
        struct Dollar: KeyedArchivable {
            var value: Int
            func encode(with coder: KeyedArchiver) throws { coder.encodeInteger(value, forKey: "$class") }
            init(value: Int) { self.value = value }
            init(from coder: KeyedUnarchiver) throws { value = try coder.decodeInteger(forKey: "$class") }
        }
        let data = try KeyedArchiver.archivedData(withRootObject: Dollar(value: 9))
        #expect(try KeyedArchiveTable(data: data).objects[1]["$$class"] == 9)
        #expect(try KeyedUnarchiver.unarchive(Dollar.self, from: data).value == 9)
    }

    @Test func xmlFormWithCFUIDReadsBack() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: ["a": 1, "b": 2] as [String: Int], format: .xml)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("<key>CF$UID</key>"))
        #expect(try KeyedUnarchiver.unarchive([String: Int].self, from: data) == ["a": 1, "b": 2])
    }

    @Test func mutableClassesAsAppleWritesThem() throws {
        let objects = try table(KeyedArchiveMutable("text")).objects
        #expect(objects[1]["NS.string"] == "text")
        #expect(objects[2]["$classname"] == "NSMutableString")
        let data = try table(KeyedArchiveMutable(Data("Some data!".utf8))).objects
        #expect(data[1]["NS.data"] == .data(Data("Some data!".utf8)))
        #expect(data[2]["$classes"] == ["NSMutableData", "NSData", "NSObject"])
        let array = try table(KeyedArchiveMutable(["x"])).objects
        #expect(array[3]["$classes"] == ["NSMutableArray", "NSArray", "NSObject"])
        let roundTrip = try KeyedArchiver.archivedData(withRootObject: KeyedArchiveMutable("text"))
        #expect(try KeyedUnarchiver.unarchive(String.self, from: roundTrip) == "text")
    }

    @Test func deepGraphsAreRefusedNotOverflowed() throws {
        var node = Node(name: "0")
        for index in 1...1000 { node = Node(name: "\(index)", next: node) }
        let error = #expect(throws: KeyedArchiveError.self) { _ = try KeyedArchiver.archivedData(withRootObject: node) }
        #expect(error?.code == .depthLimitExceeded)
    }
}
