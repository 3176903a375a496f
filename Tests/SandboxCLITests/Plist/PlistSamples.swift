import Foundation
import PropertyList

/// Property lists the end-to-end tests write into temporary directories.
enum PlistSamples {
    /// Every scalar type, nested containers, and a key with a dot in it.
    static let document: PropertyListValue = [
        "Name": "Possessions",
        "Count": 3,
        "Ratio": 0.5,
        "Enabled": true,
        "Items": ["apple", "pear"],
        "Nested": ["Deeper": ["Value": 42]],
        "com.example.key": "dotted",
        "Blob": .data(Data([0xde, 0xad, 0xbe, 0xef])),
        "When": .date(Date(timeIntervalSince1970: 1_098_786_813)),
    ]

    /// Only types JSON holds without a convention (no dates, data or UIDs).
    static let jsonSafe: PropertyListValue = [
        "Name": "Possessions", "Count": 3, "Ratio": 0.5, "Enabled": true,
        "Items": ["apple", "pear"], "Nested": ["Deeper": ["Value": 42]],
    ]

    /// `value` as a binary property list.
    static func binary(_ value: PropertyListValue = document) throws -> Data {
        try value.encoded(as: .binary)
    }
}
