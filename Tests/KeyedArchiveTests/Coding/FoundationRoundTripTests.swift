import Foundation
import KeyedArchive
import OrderedCollections
import PropertyList
import Testing

/// Every built-in Foundation class writes and reads back.
struct FoundationRoundTripTests {
    func roundTrip<T: KeyedArchiveRepresentable>(_ value: T, format: PropertyListFormat = .binary) throws -> T {
        try KeyedUnarchiver.unarchive(T.self, from: KeyedArchiver.archivedData(withRootObject: value, format: format))
    }

    @Test func scalarsAndStrings() throws {
        #expect(try roundTrip("héllo ✓") == "héllo ✓")
        #expect(try roundTrip(Data([0, 1, 2])) == Data([0, 1, 2]))
        #expect(try roundTrip(Int.min) == Int.min)
        #expect(try roundTrip(UInt64.max) == UInt64.max)
        #expect(try roundTrip(Int64(-5)) == -5)
        #expect(try roundTrip(2.5) == 2.5)
        #expect(try roundTrip(true) == true)
        let date = Date(timeIntervalSinceReferenceDate: 123456.789)
        #expect(try roundTrip(date) == date)
        #expect(try roundTrip(date, format: .xml) == date)
    }

    @Test func collections() throws {
        #expect(try roundTrip(["a", "b", "a"]) == ["a", "b", "a"])
        #expect(try roundTrip(Set([1, 2, 3])) == [1, 2, 3])
        #expect(try roundTrip(["k": [1.5, 2.5]]) == ["k": [1.5, 2.5]])
        #expect(try roundTrip(OrderedSet(["z", "a"])) == ["z", "a"])
        var counted = KeyedArchiveCountedSet<String>()
        counted.insert("x"); counted.insert("x"); counted.insert("y")
        #expect(try roundTrip(counted) == counted)
        #expect(try roundTrip([[String: Set<Int>]]()) == [])
    }

    @Test func uuidURLNullAndSpecialValues() throws {
        let uuid = UUID()
        #expect(try roundTrip(uuid) == uuid)
        let url = try #require(URL(string: "foo.xml", relativeTo: URL(string: "https://www.example.com")))
        let back = try roundTrip(url)
        #expect(back.relativeString == "foo.xml")
        #expect(back.absoluteString == "https://www.example.com/foo.xml")
        #expect(try roundTrip(URL(fileURLWithPath: "/tmp/x")).path == "/tmp/x")
        #expect(try roundTrip(KeyedArchiveNull()) == KeyedArchiveNull())
        for special: KeyedArchiveSpecialValue in [
            .point(x: 1, y: -2.5), .size(width: 3, height: 4), .rect(x: 400, y: 300, width: 200, height: 300),
            .range(location: 97345, length: 98345), .edgeInsets(top: 1, left: 2, bottom: 3, right: 4),
        ] {
            #expect(try roundTrip(special) == special)
        }
    }

    @Test func typeStructsWithEveryCoderCall() throws {
        let inventory = Inventory(owner: "me", tags: ["a", "b"], counts: ["x": 1], history: [Date(timeIntervalSince1970: 0)],
                                  note: nil, flag: true, ratio: 0.25, big: Int64.max)
        #expect(try roundTrip(inventory) == inventory)
        #expect(try roundTrip(inventory, format: .xml) == inventory)
    }

    @Test func primitivesMissingReadAsZeroLikeFoundation() throws {
        struct Empty: KeyedArchivable {
            var values: [Double] = []
            init() {}
            func encode(with coder: KeyedArchiver) throws {}
            init(from coder: KeyedUnarchiver) throws {
                values = [Double(try coder.decodeInteger(forKey: "a")), try coder.decodeDouble(forKey: "b"),
                          try coder.decodeBool(forKey: "c") ? 1 : 0]
                #expect(try coder.decodeIfPresent(String.self, forKey: "d") == nil)
                #expect(throws: KeyedArchiveError.self) { _ = try coder.decode(String.self, forKey: "d") }
            }
        }
        #expect(try roundTrip(Empty()).values == [0, 0, 0])
    }
}
