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

extension PropertyListValue {
    /// Converts `data`, a property list in `source` format, to `target`:
    /// exactly the bytes of ``decode(_:as:limits:)`` then
    /// ``encoded(as:options:)``, and for an input either refuses, the same
    /// error.
    ///
    /// From binary to XML (the common conversion) the value is never built:
    /// the file's objects are validated, counted against the writer's
    /// limits (shared sub-trees once each, so a small file that expands
    /// past `maximumOutputSize` is refused before anything is allocated)
    /// and written as XML straight into the output. A dictionary that
    /// repeats a key, sorted keys, or a writer depth limit below the
    /// reader's are decoded, as is every other pair of formats: a binary
    /// file cannot be written before every object is known (its offset
    /// table, reference width and shared scalars come from the whole tree).
    public static func convert(_ data: Data, from source: PropertyListFormat, to target: PropertyListFormat,
                               limits: PropertyListLimits = .default,
                               options: PropertyListWriteOptions = .init()) throws -> Data {
        if source == .binary, target == .xml,
           let streamed = try data.withUnsafeBytes({ bytes in
               try BinaryPropertyListReader(limits: limits).streamXML(bytes: bytes, options: options)
           }) {
            return streamed
        }
        return try decode(data, as: source, limits: limits).encoded(as: target, options: options)
    }

    /// ``convert(_:from:to:limits:options:)`` handing the output to `write`
    /// in pieces, in order, instead of returning it: the same bytes, and for
    /// an input either refuses, the same error.
    ///
    /// From binary to XML the pieces of a large document are made on two
    /// threads while `write` runs, so writing a file overlaps converting;
    /// other conversions make the whole output, then call `write` once.
    /// Every limit (depth, object count, output size) is decided before the
    /// first call of `write`, but a string the XML writer refuses (a
    /// control character, say) may fail the conversion after part of the
    /// output was written: write to somewhere the caller can discard, such
    /// as an atomic replace's temporary file. `write` is called on any
    /// thread, one call at a time; an error it throws stops the conversion
    /// and is rethrown.
    public static func convert(_ data: Data, from source: PropertyListFormat, to target: PropertyListFormat,
                               limits: PropertyListLimits = .default, options: PropertyListWriteOptions = .init(),
                               into write: (UnsafeRawBufferPointer) throws -> Void) throws {
        if source == .binary, target == .xml,
           try data.withUnsafeBytes({ bytes in
               try BinaryPropertyListReader(limits: limits).streamXML(bytes: bytes, options: options, into: write)
           }) {
            return
        }
        try decode(data, as: source, limits: limits).encoded(as: target, options: options).withUnsafeBytes { try write($0) }
    }
}

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

/// Options for writing a property list in any format.
public struct PropertyListWriteOptions: Hashable, Sendable {
    /// Whether dictionary keys are written sorted (by UTF-16 code units, as
    /// CF sorts them) instead of in insertion order. Binary output keeps
    /// insertion order unless this is set.
    public var sortsKeys: Bool
    /// The deepest nesting written.
    public var maximumDepth: Int
    /// The largest output written (see ``PropertyListLimits/maximumOutputSize``):
    /// a value that would be larger is refused before anything is allocated.
    public var maximumOutputSize: Int

    /// Creates options.
    public init(sortsKeys: Bool = false, maximumDepth: Int = PropertyListLimits.default.maximumDepth,
                maximumOutputSize: Int = PropertyListLimits.default.maximumOutputSize) {
        self.sortsKeys = sortsKeys
        self.maximumDepth = maximumDepth
        self.maximumOutputSize = maximumOutputSize
    }

    /// The default limits with these options' depth and output size, for
    /// the writers that take a ``PropertyListLimits``.
    var writerLimits: PropertyListLimits {
        PropertyListLimits(maximumDepth: maximumDepth, maximumOutputSize: maximumOutputSize)
    }
}

extension PropertyListValue {
    /// Decodes a property list in any readable format, detected from its bytes.
    public init(data: Data, limits: PropertyListLimits = .default) throws {
        self = try Self.decode(data, limits: limits).value
    }

    /// Decodes a property list in any readable format, and says which format it was.
    ///
    /// A file that starts with `bplist0` is always read as binary; a broken
    /// one is an error, never re-read as text.
    public static func decode(_ data: Data, limits: PropertyListLimits = .default) throws -> (value: PropertyListValue, format: PropertyListFormat) {
        let format = PropertyListFormat.detect(data)
        return (try decode(data, as: format, limits: limits), format)
    }

    /// Decodes a property list in the given format.
    public static func decode(_ data: Data, as format: PropertyListFormat, limits: PropertyListLimits = .default) throws -> PropertyListValue {
        if format != .binary && format != .xml { try ForeignFormat.refuse(data, as: format) }
        switch format {
        case .binary: return try BinaryPropertyListReader(limits: limits).read(data)
        case .xml: return try XMLPropertyListReader(limits: limits).read(data)
        case .openStep: return try OpenStepPropertyListReader(limits: limits).read(data)
        case .json: return try JSONPropertyListReader(limits: limits).read(data)
        }
    }

    /// Encodes this value in `format`.
    public func encoded(as format: PropertyListFormat, options: PropertyListWriteOptions = .init()) throws -> Data {
        let value = options.sortsKeys ? sortingKeys() : self
        switch format {
        case .binary: return try BinaryPropertyListWriter(limits: options.writerLimits).write(value, options: options)
        case .xml: return try XMLPropertyListWriter(limits: options.writerLimits).write(value, options: options)
        case .openStep: return try OpenStepPropertyListWriter(maximumDepth: options.maximumDepth).write(value, options: options)
        case .json: return try JSONPropertyListWriter(maximumDepth: options.maximumDepth).write(value, options: options)
        }
    }

    /// This value with every dictionary's keys sorted by UTF-16 code units,
    /// the order CF's `CFStringCompare` gives.
    ///
    /// A container shared by several parents (as a decoded file's shared
    /// objects are) is sorted once and stays shared in the result, so a
    /// small "bomb" never expands here.
    public func sortingKeys() -> PropertyListValue {
        var sorted: [UnsafeRawPointer: PropertyListValue] = [:]
        return sortingKeys(memo: &sorted)
    }

    private func sortingKeys(memo: inout [UnsafeRawPointer: PropertyListValue]) -> PropertyListValue {
        switch self {
        case .array(let elements):
            // The element storage identifies the array while `self` is alive.
            let identity = SharedStorage.identity(of: elements)
            if let identity, let done = memo[identity] { return done }
            let result = PropertyListValue.array(elements.map { $0.sortingKeys(memo: &memo) })
            if let identity { memo[identity] = result }
            return result
        case .dictionary(var entries):
            let identity = SharedStorage.identity(of: entries)
            if let identity, let done = memo[identity] { return done }
            entries.sort { lhs, rhs in lhs.key.utf16.lexicographicallyPrecedes(rhs.key.utf16) }
            for index in entries.values.indices { entries.values[index] = entries.values[index].sortingKeys(memo: &memo) }
            let result = PropertyListValue.dictionary(entries)
            if let identity { memo[identity] = result }
            return result
        default:
            return self
        }
    }
}
