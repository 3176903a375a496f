import Foundation
import Testing
@testable import PropertyList

@Suite struct BinaryPropertyListTests {
    @Test func roundTripsScalarsAndContainers() throws {
        let value: PropertyListValue = [
            "name": "Possessions", "count": 42, "negative": -5, "pi": 3.25, "flag": true,
            "when": .date(Date(timeIntervalSinceReferenceDate: 12345.678)), "blob": .data(Data([1, 2, 3])),
            "unicode": "café ☕︎ 𝄞", "list": [1, 1, "x", "x", .uid(PropertyListUID(7))],
            "big": .integer(PropertyListInteger(UInt64.max)), "min": .integer(PropertyListInteger(Int64.min)),
        ]
        let data = try BinaryPropertyListWriter().write(value)
        #expect(try BinaryPropertyListReader().read(data) == value)
    }
}
