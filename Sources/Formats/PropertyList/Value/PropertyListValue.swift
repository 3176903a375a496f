import Foundation
import OrderedCollections

/// A property-list value: one case for every type the binary, XML and
/// OpenStep formats can hold.
///
/// Dictionaries keep their keys in insertion order, so a file read and
/// written again keeps its layout. Shared sub-trees (as binary files may
/// contain) are shared in memory too: arrays and dictionaries are
/// copy-on-write, so a value decoded from a "billion laughs" file costs
/// memory linear in the file size.
///
/// ```swift
/// let prefs: PropertyListValue = ["TermsAccepted": true, "Launches": 3]
/// let bytes = try prefs.encoded(as: .binary)
/// ```
public enum PropertyListValue: Hashable, Sendable {
    /// A Unicode string.
    case string(String)
    /// An integer in the range −2⁶³ … 2⁶⁴−1.
    case integer(PropertyListInteger)
    /// A double-precision real.
    case real(Double)
    /// A single-precision real, as Apple's writers store `Float` values.
    case float(Float)
    /// A Boolean.
    case bool(Bool)
    /// An absolute point in time, stored as seconds since 2001-01-01 UTC.
    ///
    /// Readers and writers accept finite dates in the years −9999 … 9999,
    /// the range the XML form can spell; others are an error.
    case date(Date)
    /// Raw bytes.
    case data(Data)
    /// An ordered list of values.
    case array([PropertyListValue])
    /// String-keyed values, in insertion order.
    case dictionary(OrderedDictionary<String, PropertyListValue>)
    /// A keyed-archive object reference (`CF$UID`).
    case uid(PropertyListUID)
}

extension PropertyListValue {
    /// The name of this value's type, as plutil and error messages spell it.
    public var typeName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .real, .float: "real"
        case .bool: "bool"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dictionary: "dictionary"
        case .uid: "uid"
        }
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, if this is an integer.
    public var integerValue: PropertyListInteger? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The value as a signed 64-bit integer, if it is an integer that fits.
    public var int64Value: Int64? { integerValue?.int64Value }

    /// The value as a `Double`, if it is a real of either precision.
    public var realValue: Double? {
        switch self {
        case .real(let value): value
        case .float(let value): Double(value)
        default: nil
        }
    }

    /// The Boolean, if this is a Boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The date, if this is a date.
    public var dateValue: Date? {
        if case .date(let value) = self { return value }
        return nil
    }

    /// The bytes, if this is data.
    public var dataValue: Data? {
        if case .data(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [PropertyListValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The entries, if this is a dictionary.
    public var dictionaryValue: OrderedDictionary<String, PropertyListValue>? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    /// The reference, if this is a keyed-archive UID.
    public var uidValue: PropertyListUID? {
        if case .uid(let value) = self { return value }
        return nil
    }

    /// The value for `key`, if this is a dictionary that has it.
    public subscript(key: String) -> PropertyListValue? {
        dictionaryValue?[key]
    }

    /// The element at `index`, if this is an array long enough to have it.
    public subscript(index: Int) -> PropertyListValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }
}
