import Foundation

/// Options for writing a property list in any format.
public struct PropertyListWriteOptions: Hashable, Sendable {
    /// Whether dictionary keys are written sorted (by UTF-16 code units, as
    /// CF sorts them) instead of in insertion order. Binary output keeps
    /// insertion order unless this is set.
    public var sortsKeys: Bool
    /// The deepest nesting written.
    public var maximumDepth: Int

    /// Creates options.
    public init(sortsKeys: Bool = false, maximumDepth: Int = PropertyListLimits.default.maximumDepth) {
        self.sortsKeys = sortsKeys
        self.maximumDepth = maximumDepth
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
        switch format {
        case .binary: try BinaryPropertyListReader(limits: limits).read(data)
        case .xml: try XMLPropertyListReader(limits: limits).read(data)
        case .openStep: try OpenStepPropertyListReader(limits: limits).read(data)
        case .json: try JSONPropertyListReader(limits: limits).read(data)
        }
    }

    /// Encodes this value in `format`.
    public func encoded(as format: PropertyListFormat, options: PropertyListWriteOptions = .init()) throws -> Data {
        let value = options.sortsKeys ? sortingKeys() : self
        switch format {
        case .binary: return try BinaryPropertyListWriter(maximumDepth: options.maximumDepth).write(value)
        case .xml: return try XMLPropertyListWriter(maximumDepth: options.maximumDepth).write(value)
        case .openStep: return try OpenStepPropertyListWriter(maximumDepth: options.maximumDepth).write(value)
        case .json: return try JSONPropertyListWriter(maximumDepth: options.maximumDepth).write(value)
        }
    }

    /// This value with every dictionary's keys sorted by UTF-16 code units,
    /// the order CF's `CFStringCompare` gives.
    public func sortingKeys() -> PropertyListValue {
        switch self {
        case .array(let elements):
            return .array(elements.map { $0.sortingKeys() })
        case .dictionary(var entries):
            entries.sort { lhs, rhs in lhs.key.utf16.lexicographicallyPrecedes(rhs.key.utf16) }
            for index in entries.values.indices { entries.values[index] = entries.values[index].sortingKeys() }
            return .dictionary(entries)
        default:
            return self
        }
    }
}
