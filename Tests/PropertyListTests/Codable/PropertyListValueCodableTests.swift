import Foundation
import Testing
@testable import PropertyList

/// The `Codable` conformances of `PropertyListValue`, `PropertyListUID` and
/// `PropertyListInteger`.
@Suite struct PropertyListValueCodableTests {
    static let everyKind: PropertyListValue = [
        "string": "text", "integer": -7, "big": .integer(PropertyListInteger(UInt64.max)), "real": 2.5,
        "float": .float(1.5), "bool": true, "date": .date(Date(timeIntervalSinceReferenceDate: 1.25)),
        "data": .data(Data([1, 2])), "array": [1, [2, ["deep": "x"]]], "uid": .uid(PropertyListUID(9)),
    ]

    struct Document: Codable, Equatable {
        var title: String
        var extras: PropertyListValue
        var reference: PropertyListUID
        var count: PropertyListInteger
    }

    @Test func valuesPassThroughUnchanged() throws {
        let document = Document(title: "t", extras: Self.everyKind, reference: PropertyListUID(4), count: PropertyListInteger(UInt64.max))
        let value = try PropertyListValueEncoder().encode(document)
        #expect(value == [
            "title": "t", "extras": Self.everyKind, "reference": .uid(PropertyListUID(4)),
            "count": .integer(PropertyListInteger(UInt64.max)),
        ])
        #expect(try PropertyListValueDecoder().decode(Document.self, from: value) == document)
        let data = try PropertyListValueEncoder().encode(document, as: .binary)
        #expect(try PropertyListValueDecoder().decode(Document.self, from: data) == document)
        #expect(try PropertyListValueEncoder().encode(Self.everyKind) == Self.everyKind)
    }

    @Test func uidReadsTheTextFormsSpelling() throws {
        let decoder = PropertyListValueDecoder()
        #expect(try decoder.decode(PropertyListUID.self, from: ["CF$UID": 12]) == PropertyListUID(12))
        #expect(throws: DecodingError.self) { try decoder.decode(PropertyListUID.self, from: ["CF$UID": -1]) }
        #expect(throws: DecodingError.self) { try decoder.decode(PropertyListUID.self, from: ["other": 1]) }
    }

    /// Through a foreign coder, every kind but dates, data and single
    /// precision comes back as it was (JSON has no key order, so keys are compared sorted).
    @Test func roundTripsThroughJSONCoders() throws {
        var portable = Self.everyKind
        if case .dictionary(var entries) = portable {
            for key in ["date", "data", "float"] { entries.removeValue(forKey: key) }
            portable = .dictionary(entries)
        }
        let json = try JSONEncoder().encode(portable)
        let decoded = try JSONDecoder().decode(PropertyListValue.self, from: json)
        #expect(decoded.sortingKeys() == portable.sortingKeys())

        let integers = [PropertyListInteger(Int64.min), PropertyListInteger(UInt64.max)]
        #expect(try JSONDecoder().decode([PropertyListInteger].self, from: JSONEncoder().encode(integers)) == integers)
        let uid = PropertyListUID(3)
        #expect(String(decoding: try JSONEncoder().encode(uid), as: UTF8.self) == #"{"CF$UID":3}"#)
        #expect(try JSONDecoder().decode(PropertyListUID.self, from: JSONEncoder().encode(uid)) == uid)
    }

    @Test func foreignNullIsRefused() {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PropertyListValue.self, from: Data("null".utf8)) }
    }
}

extension PropertyListValueCodableTests {
    /// A custom conformance that hands its own coder to the conformances
    /// instead of going through a container.
    struct Direct: Codable, Equatable {
        var payload: PropertyListValue
        var uid: PropertyListUID

        init(payload: PropertyListValue, uid: PropertyListUID) {
            self.payload = payload
            self.uid = uid
        }

        enum Keys: CodingKey { case payload, uid }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try payload.encode(to: container.superEncoder(forKey: .payload))
            try uid.encode(to: container.superEncoder(forKey: .uid))
        }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            payload = try PropertyListValue(from: container.superDecoder(forKey: .payload))
            uid = try PropertyListUID(from: container.superDecoder(forKey: .uid))
        }
    }

    @Test func conformancesCalledDirectlyKeepTypes() throws {
        let direct = Direct(payload: ["whole": 3.0, "single": .float(2), "when": .date(Date(timeIntervalSinceReferenceDate: 0))], uid: PropertyListUID(5))
        let value = try PropertyListValueEncoder().encode(direct)
        #expect(value == ["payload": direct.payload, "uid": .uid(PropertyListUID(5))])
        #expect(try PropertyListValueDecoder().decode(Direct.self, from: value) == direct)
    }
}
