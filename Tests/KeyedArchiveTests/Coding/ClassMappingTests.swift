import Foundation
import KeyedArchive
import OrderedCollections
import PropertyList
import Testing

/// Class names from Objective-C map to Swift types both ways, and objects
/// of classes nobody registered are written and read generically (MBFile).
struct ClassMappingTests {
    struct Item: KeyedArchivable, Equatable {
        var name: String
        func encode(with coder: KeyedArchiver) throws { try coder.encode(name, forKey: "possessionName") }
        init(name: String) { self.name = name }
        init(from coder: KeyedUnarchiver) throws { name = try coder.decode(String.self, forKey: "possessionName") }
    }

    @Test func swiftTypeWrittenUnderAnObjectiveCName() throws {
        let archiver = KeyedArchiver()
        archiver.setClassName("Possession", for: Item.self)
        try archiver.encode(Item(name: "Sofa"), forKey: "root")
        let data = try archiver.encodedData()
        let graph = try KeyedUnarchiver(data: data).decodeRootGraph()
        #expect(graph.object?.className == "Possession")

        // Read back: without a mapping the name does not match Item's own.
        let unmapped = #expect(throws: KeyedArchiveError.self) { _ = try KeyedUnarchiver.unarchive(Item.self, from: data) }
        #expect(unmapped?.code == .typeMismatch)
        let unarchiver = try KeyedUnarchiver(data: data)
        unarchiver.setClass(Item.self, forClassName: "Possession")
        #expect(try unarchiver.decodeRoot(Item.self) == Item(name: "Sofa"))
    }

    static var mbFileFields: OrderedDictionary<String, ArchivedValue> { [
        "Birth": .integer(1_700_000_000), "LastModified": .integer(1_700_000_100), "LastStatusChange": .integer(1_700_000_200),
        "Mode": .integer(0o100644), "UserID": .integer(501), "GroupID": .integer(501), "InodeNumber": .integer(123_456),
        "Size": .integer(42), "Flags": .integer(0), "ProtectionClass": .integer(3),
        "RelativePath": .string("Library/Preferences/com.example.plist"), "Target": .null,
        "Digest": .data(Data(repeating: 0xAB, count: 20)), "EncryptionKey": .data(Data(repeating: 1, count: 44)),
        "ExtendedAttributes": .null,
    ] }

    @Test func mbFileWrittenAndReadGenerically() throws {
        let file = ArchivedObject(className: "MBFile", fields: Self.mbFileFields)
        let data = try KeyedArchiver.archivedData(withRootObject: file)
        let stored = try KeyedArchiveTable(data: data).objects[1]
        #expect(stored["Mode"] == 0o100644)
        #expect(stored["RelativePath"]?.uidValue != nil)
        #expect(stored["Target"] == .uid(PropertyListUID(0)))

        let back = try #require(try KeyedUnarchiver(data: data).decodeRootGraph().object)
        #expect(back.className == "MBFile")
        #expect(back.fields.keys.elements == Self.mbFileFields.keys.elements)
        #expect(back["Mode"]?.intValue == 0o100644)
        #expect(back["RelativePath"]?.stringValue == "Library/Preferences/com.example.plist")
        #expect(back["Digest"]?.dataValue?.count == 20)
        #expect(back["Target"] == .null)
        // And through the Codable bridge: a custom class reads as its coder keys.
        struct MBFileRecord: Decodable { var RelativePath: String; var Size: Int; var Mode: Int; var Digest: Data }
        let record = try KeyedUnarchiver.unarchive(decoding: MBFileRecord.self, from: data)
        #expect(record.RelativePath == "Library/Preferences/com.example.plist")
        #expect(record.Size == 42)
    }
}
