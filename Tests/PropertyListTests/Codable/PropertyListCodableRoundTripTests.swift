import Foundation
import OrderedCollections
import Testing
@testable import PropertyList

@Suite struct PropertyListCodableRoundTripTests {
    let encoder = PropertyListValueEncoder()
    let decoder = PropertyListValueDecoder()

    @Test func possessionEncodesAsNativeTypes() throws {
        let value = try encoder.encode(Possession.sample())
        let expected: PropertyListValue = [
            "name": "Rusty Spork 0",
            "serialNumber": "SN-0",
            "valueInDollars": 42,
            "dateCreated": .date(Date(timeIntervalSinceReferenceDate: 700_000_000)),
            "tags": ["kitchen", "café ☕︎"],
            "location": ["room": "Kitchen", "shelf": 3],
            "condition": "worn",
            "acquisition": ["bought": ["price": 9.75, "store": "Bazaar"]],
            "insuranceNumber": .integer(PropertyListInteger(UInt64.max)),
            "ledgerOffset": .integer(PropertyListInteger(Int64.min)),
            "weight": .float(0.25),
            "thumbnail": .data(Data([0, 1, 2, 0xFF])),
            "homepage": "https://example.com/items/0?view=full",
        ]
        #expect(value == expected)
    }

    @Test func keysKeepDeclarationOrderAndNilKeysAreLeftOut() throws {
        let value = try encoder.encode(Possession.sample(1))
        let keys = Array(value.dictionaryValue?.keys ?? [])
        #expect(keys == Possession.declaredKeys.filter { $0 != "imageKey" && $0 != "serialNumber" })
    }

    @Test(arguments: 0..<3) func possessionRoundTripsThroughValue(index: Int) throws {
        let possession = Possession.sample(index)
        let value = try encoder.encode(possession)
        #expect(try decoder.decode(Possession.self, from: value) == possession)
    }

    @Test func possessionsRoundTripThroughBinary() throws {
        let possessions = (0..<500).map(Possession.sample)
        let data = try encoder.encode(possessions, as: .binary)
        #expect(data.starts(with: Array("bplist00".utf8)))
        #expect(try decoder.decode([Possession].self, from: data) == possessions)
    }

    /// Every format: OpenStep stores numbers, Booleans and dates as strings,
    /// which the decoder reads back when the bytes are OpenStep; JSON has no
    /// dates or data, so the model is checked through OpenStep and JSON
    /// without its date and data fields by `possessionWithoutDatesRoundTrips`.
    @Test(arguments: [PropertyListFormat.binary, .xml, .openStep])
    func possessionRoundTripsThroughFormat(format: PropertyListFormat) throws {
        let possession = Possession.sample(3)
        let data = try encoder.encode(possession, as: format)
        #expect(PropertyListFormat.detect(data) == format)
        var expected = possession
        if format == .xml || format == .openStep { expected.dateCreated = Date(timeIntervalSinceReferenceDate: expected.dateCreated.timeIntervalSinceReferenceDate.rounded(.down)) }
        #expect(try decoder.decode(Possession.self, from: data) == expected)
    }

    struct Inventory: Codable, Equatable {
        var names: [String]
        var counts: [String: Int]
        var total: Double
        var isSorted: Bool
        var owner: String?
    }

    @Test(arguments: [PropertyListFormat.binary, .xml, .openStep, .json])
    func modelWithoutDatesOrDataRoundTripsThroughEveryFormat(format: PropertyListFormat) throws {
        let inventory = Inventory(names: ["Lamp", "Café table"], counts: ["Lamp": 2, "Chair": 4], total: 1234.5, isSorted: true, owner: nil)
        let data = try encoder.encode(inventory, as: format)
        #expect(try decoder.decode(Inventory.self, from: data) == inventory)
    }

    @Test func sortedKeysOptionReachesTheWriter() throws {
        let data = try encoder.encode(Possession.Location(room: "Hall", shelf: 1), as: .binary, options: .init(sortsKeys: true))
        let value = try PropertyListValue(data: data)
        #expect(Array(value.dictionaryValue?.keys ?? []) == ["room", "shelf"])
    }

    @Test func optionalsInArraysUseFoundationsNullMarker() throws {
        let values: [Int?] = [1, nil, 3]
        let encoded = try encoder.encode(values)
        #expect(encoded == [1, "$null", 3])
        #expect(try decoder.decode([Int?].self, from: encoded) == values)
    }

    @Test func missingAndNullKeysDecodeAsNil() throws {
        struct Sparse: Codable, Equatable {
            var a: Int?
            var b: String?
            var c: [Int]?
        }
        #expect(try decoder.decode(Sparse.self, from: [:]) == Sparse())
        #expect(try decoder.decode(Sparse.self, from: ["a": "$null", "c": [2]]) == Sparse(c: [2]))
        #expect(try encoder.encode(Sparse(b: "x")) == ["b": "x"])
    }

    @Test func explicitNilLeavesTheKeyOut() throws {
        struct Explicit: Encodable {
            enum CodingKeys: String, CodingKey { case first, gone, last }
            func encode(to encoder: Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(1, forKey: .first)
                try container.encode(2, forKey: .gone)
                try container.encodeNil(forKey: .gone) // replaces the earlier value
                try container.encode(Optional<Int>.none, forKey: .last)
            }
        }
        #expect(try encoder.encode(Explicit()) == ["first": 1])
    }

    @Test func dictionariesFollowTheStandardLibrary() throws {
        let byName = ["one": 1, "two": 2]
        #expect(try encoder.encode(byName).dictionaryValue?.count == 2)
        #expect(try decoder.decode([String: Int].self, from: encoder.encode(byName)) == byName)

        // Int keys become string keys, as the standard library's conformance asks.
        let byNumber = [1: "one", 20: "twenty"]
        let numberValue = try encoder.encode(byNumber)
        #expect(numberValue["20"] == "twenty")
        #expect(try decoder.decode([Int: String].self, from: numberValue) == byNumber)

        // Other keys make an array of alternating keys and values.
        let byReal = [1.5: "one and a half"]
        #expect(try encoder.encode(byReal) == [1.5, "one and a half"])
        #expect(try decoder.decode([Double: String].self, from: encoder.encode(byReal)) == byReal)
    }

    @Test func scalarsAtTheTopLevel() throws {
        #expect(try encoder.encode(5) == 5)
        #expect(try encoder.encode(UInt64.max) == .integer(PropertyListInteger(UInt64.max)))
        #expect(try encoder.encode(Optional<Int>.none) == "$null")
        #expect(try decoder.decode(Int8.self, from: -128) == -128)
        #expect(try decoder.decode(String?.self, from: "$null") == nil)
        #expect(try decoder.decode(URL.self, from: "file:///tmp/x") == URL(fileURLWithPath: "/tmp/x"))
    }

    @Test func int128WithinRange() throws {
        guard #available(macOS 15.0, iOS 18.0, *) else { return }
        let values: [Int128] = [Int128(Int64.min), Int128(UInt64.max)]
        let encoded = try encoder.encode(values)
        #expect(encoded == [.integer(PropertyListInteger(Int64.min)), .integer(PropertyListInteger(UInt64.max))])
        #expect(try decoder.decode([Int128].self, from: encoded) == values)
        #expect(try decoder.decode(UInt128.self, from: .integer(PropertyListInteger(UInt64.max))) == UInt128(UInt64.max))
    }

    @Test func lenientNumberConversions() throws {
        #expect(try decoder.decode(Int.self, from: 3.0) == 3)
        #expect(try decoder.decode(UInt8.self, from: .float(255)) == 255)
        #expect(try decoder.decode(Double.self, from: 3) == 3.0)
        #expect(try decoder.decode(Float.self, from: 0.1) == Float(0.1))
        #expect(try decoder.decode(Float.self, from: .real(.infinity)) == .infinity)
        #expect(try decoder.decode(Double.self, from: .float(0.5)) == 0.5)
        #expect(try decoder.decode(PropertyListInteger.self, from: 7.0) == 7)
    }

    @Test func superAndNestedContainersRoundTrip() throws {
        let item = Shelf(label: "Top", slots: [1, 2], note: "dusty", base: Furniture(material: "oak"))
        let value = try encoder.encode(item)
        #expect(value == [
            "label": "Top",
            "position": ["slots": [1, 2], "tags": ["dusty"]],
            "super": ["material": "oak"],
            "baseAgain": ["material": "oak"],
            "extras": [["material": "oak"], "trailing"],
        ])
        #expect(try decoder.decode(Shelf.self, from: value) == item)
    }

    @Test func userInfoReachesEncoderAndDecoder() throws {
        let key = try #require(CodingUserInfoKey(rawValue: "unit"))
        let value = try PropertyListValueEncoder(userInfo: [key: "cm"]).encode(Measured(length: 5))
        #expect(value == ["length": "5 cm"])
        #expect(try PropertyListValueDecoder(userInfo: [key: "cm"]).decode(Measured.self, from: value) == Measured(length: 5))
    }
}

/// A base value written through `superEncoder`.
struct Furniture: Codable, Equatable {
    var material: String
}

/// Uses nested containers, `superEncoder` in both kinds of container, and
/// a nested container requested twice for one key.
struct Shelf: Codable, Equatable {
    var label: String
    var slots: [Int]
    var note: String
    var base: Furniture

    enum Keys: String, CodingKey { case label, position, slots, tags, baseAgain, extras }

    init(label: String, slots: [Int], note: String, base: Furniture) {
        self.label = label
        self.slots = slots
        self.note = note
        self.base = base
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(label, forKey: .label)
        var position = container.nestedContainer(keyedBy: Keys.self, forKey: .position)
        var slotList = position.nestedUnkeyedContainer(forKey: .slots)
        for slot in slots { try slotList.encode(slot) }
        var again = container.nestedContainer(keyedBy: Keys.self, forKey: .position)
        var tags = again.nestedUnkeyedContainer(forKey: .tags)
        try tags.encode(note)
        try base.encode(to: container.superEncoder())
        try base.encode(to: container.superEncoder(forKey: .baseAgain))
        var extras = container.nestedUnkeyedContainer(forKey: .extras)
        try base.encode(to: extras.superEncoder())
        try extras.encode("trailing")
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        label = try container.decode(String.self, forKey: .label)
        let position = try container.nestedContainer(keyedBy: Keys.self, forKey: .position)
        var slotList = try position.nestedUnkeyedContainer(forKey: .slots)
        var slots: [Int] = []
        while !slotList.isAtEnd { slots.append(try slotList.decode(Int.self)) }
        self.slots = slots
        var tags = try position.nestedUnkeyedContainer(forKey: .tags)
        note = try tags.decode(String.self)
        base = try Furniture(from: container.superDecoder())
        #expect(try Furniture(from: container.superDecoder(forKey: .baseAgain)) == base)
        var extras = try container.nestedUnkeyedContainer(forKey: .extras)
        #expect(try Furniture(from: extras.superDecoder()) == base)
        #expect(try extras.decode(String.self) == "trailing")
        #expect(extras.isAtEnd)
    }
}

/// Reads its unit from `userInfo`.
struct Measured: Codable, Equatable {
    var length: Int

    init(length: Int) { self.length = length }

    enum Keys: String, CodingKey { case length }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        let unit = encoder.userInfo.first?.value as? String ?? "?"
        try container.encode("\(length) \(unit)", forKey: .length)
    }

    init(from decoder: Decoder) throws {
        let text = try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .length)
        let unit = decoder.userInfo.first?.value as? String ?? "?"
        length = Int(text.dropLast(unit.count + 1)) ?? -1
    }
}
