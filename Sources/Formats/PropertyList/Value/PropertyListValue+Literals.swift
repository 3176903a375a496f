import Foundation
import OrderedCollections

extension PropertyListValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension PropertyListValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .integer(PropertyListInteger(value)) }
}

extension PropertyListValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .real(value) }
}

extension PropertyListValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension PropertyListValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: PropertyListValue...) { self = .array(elements) }
}

extension PropertyListValue: ExpressibleByDictionaryLiteral {
    /// Builds a dictionary in the literal's order; a repeated key keeps its
    /// first position and its last value, as CF does for duplicate keys.
    public init(dictionaryLiteral elements: (String, PropertyListValue)...) {
        var entries = OrderedDictionary<String, PropertyListValue>(minimumCapacity: elements.count)
        for (key, value) in elements { entries[key] = value }
        self = .dictionary(entries)
    }
}
