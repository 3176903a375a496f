import Foundation

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
