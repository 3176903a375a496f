import Foundation
import OrderedCollections
import PropertyList

/// A value in an archive read without knowing its types: what an object's
/// field, a collection element or a `$top` entry holds.
///
/// Objects are ``ArchivedObject`` instances, shared wherever the archive
/// shares them, so shared references and cycles are kept as they are.
public enum ArchivedValue: Hashable {
    /// `UID(0)`: nil.
    case null
    /// A plain value stored inline in an object's dictionary (an
    /// `encodeInteger`/`encodeBool`/`encodeDouble` field); never an array,
    /// dictionary or UID.
    case scalar(PropertyListValue)
    /// A plain array in an object's dictionary (such as `NS.objects`).
    case array([ArchivedValue])
    /// A plain dictionary in an object's dictionary.
    case dictionary(OrderedDictionary<String, ArchivedValue>)
    /// A reference to an entry of `$objects`.
    case object(ArchivedObject)

    /// An integer stored inline, as `encodeInteger(_:forKey:)` stores it.
    public static func integer(_ value: Int) -> ArchivedValue { .scalar(.integer(PropertyListInteger(Int64(value)))) }
    /// A Boolean stored inline, as `encodeBool(_:forKey:)` stores it.
    public static func bool(_ value: Bool) -> ArchivedValue { .scalar(.bool(value)) }
    /// A double stored inline, as `encodeDouble(_:forKey:)` stores it.
    public static func double(_ value: Double) -> ArchivedValue { .scalar(.real(value)) }
    /// Bytes stored inline, as `encodeBytes(_:forKey:)` stores them.
    public static func bytes(_ value: Data) -> ArchivedValue { .scalar(.data(value)) }
    /// A string object (inline in `$objects`), as `encode(_:forKey:)` stores a string.
    public static func string(_ value: String) -> ArchivedValue { .object(ArchivedObject(inline: .string(value))) }
    /// A data object (inline in `$objects`), as `encode(_:forKey:)` stores `Data`.
    public static func data(_ value: Data) -> ArchivedValue { .object(ArchivedObject(inline: .data(value))) }
    /// A number object (inline in `$objects`), as `encode(_:forKey:)` stores an `NSNumber`.
    public static func number(_ value: PropertyListValue) -> ArchivedValue { .object(ArchivedObject(inline: value)) }

    /// Any archivable value in its archived form, for building generic
    /// objects from typed values (`ArchivedValue(archiving: Date())`).
    public init<T: KeyedArchiveRepresentable>(archiving value: T) throws {
        let archiver = KeyedArchiver()
        try archiver.encode(value, forKey: KeyedArchiveFormat.rootKey)
        self = try KeyedUnarchiver(table: archiver.finishedTable()).decodeRootGraph()
    }

    /// The object, if this is a reference.
    public var object: ArchivedObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// What Foundation class the referenced object is, read as a Swift value.
    public var foundationValue: ArchivedFoundationValue? { object?.foundationValue }

    /// The text of a string object (NSString, NSMutableString, inline string).
    public var stringValue: String? {
        switch self {
        case .scalar(let value): value.stringValue
        case .object(let object): object.foundationValue?.stringValue
        default: nil
        }
    }

    /// The number, inline or as an NSNumber, as a plain value.
    public var numberValue: PropertyListValue? {
        switch self {
        case .scalar(let value):
            switch value {
            case .integer, .real, .float, .bool: value
            default: nil
            }
        case .object(let object):
            if case .number(let number)? = object.foundationValue { number } else { nil }
        default: nil
        }
    }

    /// The number as an `Int`, if it is an integer (or Boolean) that fits.
    public var intValue: Int? { numberValue.flatMap { ArchivedNumber.integer($0) } }
    /// The number as a `Double`.
    public var doubleValue: Double? { numberValue.flatMap(ArchivedNumber.real) }
    /// The number as a `Bool`.
    public var boolValue: Bool? { numberValue.flatMap(ArchivedNumber.bool) }

    /// The bytes, inline or of an NSData/NSMutableData.
    public var dataValue: Data? {
        switch self {
        case .scalar(let value): value.dataValue
        case .object(let object): if case .data(let data)? = object.foundationValue { data } else { nil }
        default: nil
        }
    }

    /// The date of an NSDate.
    public var dateValue: Date? {
        if case .date(let date)? = foundationValue { return date }
        if case .scalar(.date(let date)) = self { return date }
        return nil
    }

    /// The elements of an NSArray, NSSet, NSOrderedSet or NSCountedSet, or of a plain array.
    public var elements: [ArchivedValue]? {
        if case .array(let elements) = self { return elements }
        switch foundationValue {
        case .array(let elements)?, .set(let elements)?, .orderedSet(let elements)?: return elements
        case .countedSet(let entries)?: return entries.map(\.element)
        default: return nil
        }
    }

    /// The field `key` of the referenced object (or of a plain dictionary).
    public subscript(key: String) -> ArchivedValue? {
        switch self {
        case .object(let object): object.fields[key]
        case .dictionary(let entries): entries[key]
        default: nil
        }
    }
}

extension ArchivedValue: KeyedArchiveRepresentable {
    /// Any class: generic values read every object.
    public static var keyedArchiveClassNames: [String] { [] }

    /// Stores the value: an object by reference, nil as `UID(0)`; plain
    /// values have no object form and are stored as inline objects.
    public func archive(with archiver: KeyedArchiver) throws -> PropertyListUID {
        switch self {
        case .null: return PropertyListUID(0)
        case .object(let object): return try object.archive(with: archiver)
        case .scalar(let value): return archiver.encodeInlineObject(value)
        case .array, .dictionary:
            throw KeyedArchiveError(.unsupportedValue, "a plain array or dictionary can only be a field, not an object")
        }
    }

    /// Reads the object at `reference` generically.
    public static func unarchive(_ reference: PropertyListUID, with unarchiver: KeyedUnarchiver) throws -> ArchivedValue {
        .object(try unarchiver.graphObject(at: reference))
    }
}
