import Foundation
@testable import PropertyList

/// A realistic model of the kind apps keep in property lists: optionals,
/// arrays, a nested struct, enums with raw and associated values, and every
/// native property-list type.
struct Possession: Codable, Equatable {
    enum Condition: String, Codable { case mint, good, worn }

    enum Acquisition: Codable, Equatable {
        case bought(price: Double, store: String)
        case gift(from: String)
        case found
    }

    struct Location: Codable, Equatable {
        var room: String
        var shelf: Int
    }

    var name: String
    var serialNumber: String?
    var valueInDollars: Int
    var dateCreated: Date
    var imageKey: String?
    var tags: [String]
    var location: Location
    var condition: Condition
    var acquisition: Acquisition
    var insuranceNumber: UInt64
    var ledgerOffset: Int64
    var weight: Float
    var thumbnail: Data
    var homepage: URL

    /// The keys in declaration order, as the encoder must write them.
    static let declaredKeys = [
        "name", "serialNumber", "valueInDollars", "dateCreated", "imageKey", "tags", "location", "condition",
        "acquisition", "insuranceNumber", "ledgerOffset", "weight", "thumbnail", "homepage",
    ]

    /// A sample whose date has whole seconds, since XML dates do.
    static func sample(_ index: Int = 0) -> Possession {
        Possession(
            name: "Rusty Spork \(index)",
            serialNumber: index.isMultiple(of: 2) ? "SN-\(index)" : nil,
            valueInDollars: 42 + index,
            dateCreated: Date(timeIntervalSinceReferenceDate: 700_000_000 + Double(index)),
            imageKey: nil,
            tags: ["kitchen", "café ☕︎"],
            location: Location(room: "Kitchen", shelf: 3),
            condition: .worn,
            acquisition: index.isMultiple(of: 3) ? .bought(price: 9.75, store: "Bazaar") : .gift(from: "Ana"),
            insuranceNumber: .max,
            ledgerOffset: .min,
            weight: 0.25,
            thumbnail: Data([0, 1, 2, 0xFF]),
            homepage: URL(string: "https://example.com/items/\(index)?view=full") ?? URL(fileURLWithPath: "/")
        )
    }
}

/// Replaces a deeply nested value by its innermost part one level at a
/// time, so that releasing it does not recurse once per level.
func dismantle(_ value: inout PropertyListValue) {
    while true {
        switch value {
        case .array(let elements) where elements.count == 1:
            value = elements[0]
        case .dictionary(let entries) where entries.count == 1:
            value = entries.values[0]
        default:
            return
        }
    }
}
