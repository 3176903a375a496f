import Foundation
import OrderedCollections

/// `PropertyListValue` is `Codable`, so it can be a property of a
/// `Codable` type: a free-form part of an otherwise typed property list.
///
/// ``PropertyListValueEncoder`` and ``PropertyListValueDecoder`` store it
/// unchanged, so it round-trips exactly through them. Other coders (such as
/// `JSONEncoder`) see its parts as the nearest standard types: integers as
/// `Int64` or `UInt64`, reals as `Double`, dates as `Date`, data as `Data`,
/// UIDs as `{"CF$UID": n}`. Reading back from those, a `Float` becomes a
/// `Double`, and dates and data come back as whatever the other format made
/// of them.
extension PropertyListValue: Codable {
    /// Encodes this value as the nearest standard types, or unchanged for
    /// ``PropertyListValueEncoder``.
    public func encode(to encoder: Encoder) throws {
        if let encoder = encoder as? ValueTreeEncoder {
            try encoder.encode(self)
            return
        }
        switch self {
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .dictionary(let entries):
            var container = encoder.container(keyedBy: PropertyListCodingKey.self)
            for (key, value) in entries { try container.encode(value, forKey: PropertyListCodingKey(stringValue: key)) }
        default:
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let string): try container.encode(string)
            case .integer(let integer): try container.encode(integer)
            case .real(let real): try container.encode(real)
            case .float(let float): try container.encode(float)
            case .bool(let bool): try container.encode(bool)
            case .date(let date): try container.encode(date)
            case .data(let data): try container.encode(data)
            case .uid(let uid): try container.encode(uid)
            case .array, .dictionary: break // handled above
            }
        }
    }

    /// Decodes a value from the nearest standard types, or unchanged from
    /// ``PropertyListValueDecoder``.
    public init(from decoder: Decoder) throws {
        // Called directly (not through `decode(_:)`) by a custom `init(from:)`:
        // the value is at hand, and guessing its type could change it.
        if let decoder = decoder as? ValueTreeDecoder {
            self = decoder.value
            return
        }
        // Scalars first: a single-value container can always be made, and
        // fails only when asked for the wrong type.
        if let container = try? decoder.singleValueContainer(), let scalar = Self.scalar(in: container) {
            self = scalar
        } else if let container = try? decoder.container(keyedBy: PropertyListCodingKey.self) {
            var entries = OrderedDictionary<String, PropertyListValue>()
            for key in container.allKeys {
                entries[key.stringValue] = try container.decode(PropertyListValue.self, forKey: key)
            }
            self = Self.uid(spelledAs: entries) ?? .dictionary(entries)
        } else if var container = try? decoder.unkeyedContainer() {
            var elements: [PropertyListValue] = []
            elements.reserveCapacity(container.count ?? 0)
            while !container.isAtEnd { elements.append(try container.decode(PropertyListValue.self)) }
            self = .array(elements)
        } else if let container = try? decoder.singleValueContainer(), let scalar = Self.dateOrData(in: container) {
            // Last, because some coders read dates from numbers and data from arrays.
            self = scalar
        } else {
            let message = "Expected a property-list value (property lists have no null)."
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: message))
        }
    }

    private static func scalar(in container: SingleValueDecodingContainer) -> PropertyListValue? {
        if let bool = try? container.decode(Bool.self) { return .bool(bool) }
        if let integer = try? container.decode(Int64.self) { return .integer(PropertyListInteger(integer)) }
        if let integer = try? container.decode(UInt64.self) { return .integer(PropertyListInteger(integer)) }
        if let real = try? container.decode(Double.self) { return .real(real) }
        if let string = try? container.decode(String.self) { return .string(string) }
        return nil
    }

    private static func dateOrData(in container: SingleValueDecodingContainer) -> PropertyListValue? {
        if let date = try? container.decode(Date.self) { return .date(date) }
        if let data = try? container.decode(Data.self) { return .data(data) }
        return nil
    }

    /// The UID a `{"CF$UID": n}` dictionary spells, as the XML reader reads it.
    private static func uid(spelledAs entries: OrderedDictionary<String, PropertyListValue>) -> PropertyListValue? {
        guard entries.count == 1, let index = entries[PropertyListUID.codingKey]?.integerValue?.uint64Value else { return nil }
        return .uid(PropertyListUID(index))
    }
}

/// A UID encodes as `{"CF$UID": n}`, the dictionary XML property lists
/// spell it with; ``PropertyListValueEncoder`` stores a real UID instead.
extension PropertyListUID: Codable {
    /// The key of the dictionary that spells a UID in text formats.
    static let codingKey = "CF$UID"

    /// Encodes the UID as `{"CF$UID": n}`, or as a UID for ``PropertyListValueEncoder``.
    public func encode(to encoder: Encoder) throws {
        if let encoder = encoder as? ValueTreeEncoder {
            try encoder.encode(self)
            return
        }
        var container = encoder.container(keyedBy: PropertyListCodingKey.self)
        try container.encode(value, forKey: PropertyListCodingKey(stringValue: Self.codingKey))
    }

    /// Decodes a UID from `{"CF$UID": n}`, or from a UID with ``PropertyListValueDecoder``.
    public init(from decoder: Decoder) throws {
        if let decoder = decoder as? ValueTreeDecoder {
            self = try decoder.decode(PropertyListUID.self)
            return
        }
        let container = try decoder.container(keyedBy: PropertyListCodingKey.self)
        self.init(try container.decode(UInt64.self, forKey: PropertyListCodingKey(stringValue: Self.codingKey)))
    }
}

/// An integer encodes as an `Int64` when it fits and as a `UInt64` above
/// `Int64.max`; ``PropertyListValueEncoder`` stores it as an integer directly.
extension PropertyListInteger: Codable {
    /// Encodes the integer as an `Int64` or, above `Int64.max`, a `UInt64`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        if let signed = int64Value {
            try container.encode(signed)
        } else {
            try container.encode(bitPattern)
        }
    }

    /// Decodes an integer from an `Int64` or a `UInt64`.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let signed = try? container.decode(Int64.self) {
            self.init(signed)
        } else {
            self.init(try container.decode(UInt64.self))
        }
    }
}
