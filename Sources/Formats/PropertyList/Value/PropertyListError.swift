/// An error reading or writing a property list: what went wrong, in which
/// format, and where.
///
/// Errors are values: match on ``code`` to handle a kind of failure, and show
/// ``description`` to a person.
///
/// ```swift
/// do { _ = try PropertyListValue(data: bytes) }
/// catch let error as PropertyListError where error.code == .cycle { … }
/// ```
public struct PropertyListError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public var code: Code
    /// The format being read or written, when one was chosen.
    public var format: PropertyListFormat?
    /// Where in the input the failure was found.
    public var location: Location?
    /// A sentence saying what was wrong.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, format: PropertyListFormat?, location: Location? = nil, _ message: String) {
        self.code = code
        self.format = format
        self.location = location
        self.message = message
    }

    /// A place in the input.
    public enum Location: Hashable, Sendable, CustomStringConvertible {
        /// A byte offset from the start of a binary file.
        case byteOffset(Int)
        /// A 1-based line and column (in Unicode scalars) of a text file.
        case text(line: Int, column: Int)
        /// A key path inside a value (for writers and Codable).
        case keyPath(String)

        public var description: String {
            switch self {
            case .byteOffset(let offset): "byte \(offset)"
            case .text(let line, let column): "line \(line), column \(column)"
            case .keyPath(let path): path.isEmpty ? "the root" : "key path \(path)"
            }
        }
    }

    /// The kind of a ``PropertyListError``.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The bytes are not in any property-list format this reader knows.
        public static let unrecognizedFormat = Code(rawValue: "unrecognizedFormat")
        /// The input ends before the structure it announces.
        public static let truncated = Code(rawValue: "truncated")
        /// A binary file's header, trailer or offset table is inconsistent.
        public static let invalidTable = Code(rawValue: "invalidTable")
        /// An offset, count, size or reference points outside the input or overflows.
        public static let outOfBounds = Code(rawValue: "outOfBounds")
        /// An object's marker or type is not one the format allows here.
        public static let invalidObject = Code(rawValue: "invalidObject")
        /// A container contains itself.
        public static let cycle = Code(rawValue: "cycle")
        /// Nesting deeper than ``PropertyListLimits/maximumDepth``.
        public static let depthLimitExceeded = Code(rawValue: "depthLimitExceeded")
        /// More objects than ``PropertyListLimits/maximumObjectCount``.
        public static let objectLimitExceeded = Code(rawValue: "objectLimitExceeded")
        /// An input larger than ``PropertyListLimits/maximumInputSize``.
        public static let sizeLimitExceeded = Code(rawValue: "sizeLimitExceeded")
        /// An output that would be larger than ``PropertyListLimits/maximumOutputSize``.
        public static let outputLimitExceeded = Code(rawValue: "outputLimitExceeded")
        /// Text that is not valid in its declared encoding.
        public static let invalidEncoding = Code(rawValue: "invalidEncoding")
        /// Text that does not follow the format's grammar.
        public static let syntax = Code(rawValue: "syntax")
        /// An integer, real, date, data or boolean whose text is malformed or out of range.
        public static let invalidScalar = Code(rawValue: "invalidScalar")
        /// A dictionary key that is not a string.
        public static let invalidKey = Code(rawValue: "invalidKey")
        /// A value the chosen output format cannot represent.
        public static let unsupportedValue = Code(rawValue: "unsupportedValue")
    }

    public var description: String {
        var text = ""
        if let format { text += "\(format.displayName) property list: " }
        text += message
        if let location { text += " (at \(location))" }
        return text
    }
}
