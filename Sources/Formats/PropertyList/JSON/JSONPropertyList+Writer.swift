import Foundation

/// Writes property lists as JSON (RFC 8259), for people and tools.
///
/// Output is UTF-8 without a byte-order mark or final newline. Pretty
/// printing (the default) puts each member and element on its own line,
/// indented by two spaces per level, with `"key": value`; compact output has
/// no whitespace at all. Dictionaries keep their key order; `{}` and `[]`
/// stand for empty containers.
///
/// JSON has fewer types than property lists, so the mapping is:
///
/// | property-list value | JSON |
/// |---|---|
/// | string | string; `"` `\` and control characters escaped (`\n`, `\u001b`, …), other characters as UTF-8 |
/// | integer | number, exact over the whole range −2⁶³ … 2⁶⁴−1 |
/// | real | number in Swift's shortest round-trip form (`0.1`, `1.0`, `1e+300`); a single-precision real in its own shortest form |
/// | Boolean | `true` / `false` |
/// | date | string, ISO 8601 in UTC: `"2001-01-01T00:00:00Z"`, with a fraction only when the date is not a whole second (`"…00.5Z"`) |
/// | data | string, base64 |
/// | UID | `{"CF$UID": 5}` |
/// | array, dictionary | array, object |
///
/// Reals keep a `.0` when whole, so ``JSONPropertyListReader`` reads them
/// back as reals and integers as integers. Dates and data come back as
/// strings. NaN and infinite reals have no JSON form: writing one throws
/// ``PropertyListError/Code/unsupportedValue`` with its key path, as does
/// a date that is not finite.
public struct JSONPropertyListWriter: Sendable {
    /// The deepest nesting of arrays and dictionaries written.
    public var maximumDepth: Int
    /// Whether to indent with newlines and two spaces (`true`, the default)
    /// or write everything on one line without spaces.
    public var prettyPrinted: Bool
    /// The largest output written; see ``PropertyListLimits/maximumOutputSize``.
    public var maximumOutputSize: Int = PropertyListLimits.default.maximumOutputSize

    /// Creates a writer.
    public init(maximumDepth: Int = PropertyListLimits.default.maximumDepth) {
        self.init(maximumDepth: maximumDepth, prettyPrinted: true)
    }

    /// Creates a writer, choosing pretty or compact output.
    public init(maximumDepth: Int = PropertyListLimits.default.maximumDepth, prettyPrinted: Bool) {
        self.maximumDepth = maximumDepth
        self.prettyPrinted = prettyPrinted
    }

    /// Encodes `value` as JSON.
    public func write(_ value: PropertyListValue) throws -> Data {
        try PropertyListCensus.checkTextOutput(of: value, format: .json, maximumDepth: maximumDepth,
                                               maximumOutputSize: maximumOutputSize)
        var emitter = JSONEmitter(prettyPrinted: prettyPrinted, maximumDepth: maximumDepth)
        try emitter.write(value, depth: 0)
        return emitter.output.takeData()
    }
}

/// The text generator behind ``JSONPropertyListWriter``.
struct JSONEmitter: TextPropertyListEmitter {
    static let format = PropertyListFormat.json
    let prettyPrinted: Bool
    let maximumDepth: Int
    var output = ByteBuffer(capacity: 4096)

    /// A newline and the indentation for `depth`, when pretty printing.
    mutating func newline(_ depth: Int) {
        guard prettyPrinted else { return }
        output.append(0x0A)
        for _ in 0..<depth { output.append("  ") }
    }

    mutating func openContainer(dictionary: Bool) {
        output.append(dictionary ? UInt8(ascii: "{") : UInt8(ascii: "["))
    }

    mutating func beginMember(_ index: Int, key: String?, depth: Int) {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        newline(depth)
        if let key {
            writeString(key)
            output.append(prettyPrinted ? ": " : ":")
        }
    }

    mutating func endMember(dictionary: Bool) {}

    mutating func closeContainer(dictionary: Bool, count: Int, depth: Int) {
        if count > 0 { newline(depth) }
        output.append(dictionary ? UInt8(ascii: "}") : UInt8(ascii: "]"))
    }

    mutating func writeScalar(_ value: PropertyListValue) throws {
        switch value {
        case .string(let string):
            writeString(string)
        case .integer(let number):
            output.appendDecimal(number)
        case .real(let number):
            guard number.isFinite else { throw Self.notFinite(number.description) }
            output.append(utf8: number.description)
        case .float(let number):
            guard number.isFinite else { throw Self.notFinite(number.description) }
            // Written as the double it widens to, so reading it back gives that exact value.
            output.append(utf8: Double(number).description)
        case .bool(let flag):
            output.append(flag ? "true" : "false")
        case .date(let date):
            output.append(UInt8(ascii: "\""))
            guard PropertyListDateText.append(date, style: .iso8601, to: &output) else {
                throw Self.unwritableDate(date.timeIntervalSinceReferenceDate)
            }
            output.append(UInt8(ascii: "\""))
        case .data(let data):
            output.append(UInt8(ascii: "\""))
            output.append(utf8: data.base64EncodedString())
            output.append(UInt8(ascii: "\""))
        case .uid(let uid):
            output.append(prettyPrinted ? "{\"CF$UID\": " : "{\"CF$UID\":")
            output.appendDecimal(uid.value)
            output.append(UInt8(ascii: "}"))
        case .array, .dictionary:
            break // `write(_:depth:)` handles containers before calling here
        }
    }

    static func notFinite(_ text: String) -> PropertyListError {
        .writing(.unsupportedValue, format: .json, "JSON has no number for the real \(text)")
    }

    /// A JSON string: `"` `\` and U+0000…U+001F escaped, the rest as UTF-8.
    mutating func writeString(_ string: String) {
        var string = string
        output.append(UInt8(ascii: "\""))
        string.withUTF8 { utf8 in
            appendEscaping(utf8)
        }
        output.append(UInt8(ascii: "\""))
    }

    /// RFC 8259's `\b \t \n \f \r`; `\u00XX` for the rest.
    static let controlEscapeLetters: StaticString = "........btn.fr"
    static let hexEscapePrefix: StaticString = "u00"
}
