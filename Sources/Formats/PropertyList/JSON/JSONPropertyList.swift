import Foundation
import OrderedCollections

/// The recursive-descent parser behind ``JSONPropertyListReader``, scanning
/// UTF-8 bytes. Recursion is bounded by the depth limit. With
/// ``ValidatedText`` it makes no values (`-lint`).
struct JSONParser<Output: TextParseOutput>: TextPropertyListParser {
    static var format: PropertyListFormat { .json }
    var state: TextParserState

    @inline(__always) mutating func skipWhitespace() {
        while position < end {
            switch text[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    mutating func parseDocument() throws -> PropertyListValue {
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        guard position == end else {
            throw failure(.syntax, at: position, "expected the end of the input after the JSON value, found \(describe(at: position))")
        }
        return value
    }

    mutating func parseValue(depth: Int) throws -> PropertyListValue {
        try countObject(at: position)
        switch byte(at: position) {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            let start = position
            try expectLiteral("null")
            throw failure(.unsupportedValue, at: start, "null has no property-list equivalent (property lists have no null)")
        default:
            throw failure(.syntax, at: position, "expected a JSON value, found \(describe(at: position))")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws {
        let start = position
        let matches = literal.withUTF8Buffer { expected in
            guard end - position >= expected.count else { return false }
            for index in 0..<expected.count where text[position + index] != expected[index] { return false }
            return true
        }
        guard matches else { throw failure(.syntax, at: start, "expected '\(literal)'") }
        position += literal.utf8CodeUnitCount
    }

    mutating func enterContainer(depth: Int) throws {
        guard depth < limits.maximumDepth else {
            throw failure(.depthLimitExceeded, at: position, "arrays and objects nest deeper than \(limits.maximumDepth) levels")
        }
        position += 1
        skipWhitespace()
    }

    mutating func parseObject(depth: Int) throws -> PropertyListValue {
        try enterContainer(depth: depth)
        var entries: OrderedDictionary<String, PropertyListValue> = [:]
        if byte(at: position) == UInt8(ascii: "}") {
            position += 1
            return .dictionary(entries)
        }
        while true {
            guard byte(at: position) == UInt8(ascii: "\"") else {
                throw failure(.syntax, at: position, "expected a string key, found \(describe(at: position))")
            }
            let keyStart = position
            try countObject(at: position)
            let key = try parseString()
            skipWhitespace()
            guard byte(at: position) == UInt8(ascii: ":") else {
                throw failure(.syntax, at: position, "expected ':' after the key \(InputExcerpt.quoted(keyText(key, at: keyStart))), found \(describe(at: position))")
            }
            position += 1
            skipWhitespace()
            let value = try parseValue(depth: depth + 1)
            if Self.buildsValues { entries[key] = value }
            if try isClosed(by: UInt8(ascii: "}"), after: "an object member") { break }
        }
        // `{"CF$UID": n}` is how keyed archives' UIDs appear in JSON and XML.
        if entries.count == 1, case .integer(let number)? = entries["CF$UID"], let value = number.uint64Value {
            return .uid(PropertyListUID(value))
        }
        return .dictionary(entries)
    }

    mutating func parseArray(depth: Int) throws -> PropertyListValue {
        try enterContainer(depth: depth)
        var elements: [PropertyListValue] = []
        if byte(at: position) == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            let element = try parseValue(depth: depth + 1)
            if Self.buildsValues { elements.append(element) }
            if try isClosed(by: UInt8(ascii: "]"), after: "an array element") { break }
        }
        return .array(elements)
    }

    /// After a member or element: consumes `,` (returning `false`, more
    /// follow) or `close` (returning `true`), and the whitespace after it.
    mutating func isClosed(by close: UInt8, after what: String) throws -> Bool {
        skipWhitespace()
        let separator = byte(at: position)
        guard separator == close || separator == UInt8(ascii: ",") else {
            throw failure(.syntax, at: position,
                          "expected ',' or '\(Character(Unicode.Scalar(close)))' after \(what), found \(describe(at: position))")
        }
        position += 1
        skipWhitespace()
        return separator == close
    }

    /// The key read at `start`, for a message: `key` when decoding; when
    /// validating, which made an empty one, the key read again as decoding
    /// reads it (it was read once, so this succeeds).
    func keyText(_ key: String, at start: Int) -> String {
        guard !Self.buildsValues else { return key }
        var decoder = JSONParser<DecodedText>(state: TextParserState(text: text, limits: limits, position: start))
        return (try? decoder.parseString()) ?? key
    }
}

/// Reads JSON (RFC 8259) as a property list, so JSON can be converted to
/// the other formats.
///
/// | JSON | property-list value |
/// |---|---|
/// | object | dictionary, keys in document order; for a repeated key the last value wins at the first key's place |
/// | `{"CF$UID": n}` (the only member, n a non-negative integer) | UID |
/// | array | array |
/// | string | string |
/// | number without fraction or exponent, from −2⁶³ to 2⁶⁴−1 | integer |
/// | any other number | real (nearest double; out-of-range magnitudes become ±infinity) |
/// | `true` / `false` | Boolean |
/// | `null` | error ``PropertyListError/Code/unsupportedValue``: property lists have no null |
///
/// The grammar is strict: no comments, trailing commas, single quotes,
/// leading `+` or zeros, or bare control characters in strings. A string
/// whose `\u` escapes leave a UTF-16 surrogate unpaired is an
/// ``PropertyListError/Code/invalidEncoding`` error. Input may be UTF-8
/// (with or without BOM) or UTF-16/UTF-32. Errors carry the line and
/// column where reading stopped.
public struct JSONPropertyListReader: Sendable {
    /// The limits enforced while reading: nesting depth, number of values
    /// (keys count as values) and input size.
    public var limits: PropertyListLimits

    /// Creates a reader.
    public init(limits: PropertyListLimits = .default) { self.limits = limits }

    /// Decodes a JSON document.
    public func read(_ data: Data) throws -> PropertyListValue {
        try JSONParser<DecodedText>.parse(data, limits: limits)
    }

    /// Checks that `data` is a document ``read(_:)`` decodes, without
    /// building its value: the same parser runs and makes no strings or
    /// containers, so this succeeds exactly when ``read(_:)`` does and
    /// fails with the same error at the same line and column.
    /// `sandbox plist -lint` uses it.
    public func validate(_ data: Data) throws {
        try JSONParser<ValidatedText>.validate(data, limits: limits)
    }
}

extension JSONParser {
    /// A number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func parseNumber() throws -> PropertyListValue {
        let start = position
        if byte(at: position) == UInt8(ascii: "-") { position += 1 }
        let firstDigit = position
        try skipDigits(what: "a digit")
        if text[firstDigit] == UInt8(ascii: "0"), position - firstDigit > 1 {
            throw failure(.syntax, at: firstDigit, "numbers may not have leading zeros")
        }
        var isInteger = true
        if byte(at: position) == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            try skipDigits(what: "a digit after the decimal point")
        }
        if byte(at: position) | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            position += 1
            if byte(at: position) == UInt8(ascii: "+") || byte(at: position) == UInt8(ascii: "-") { position += 1 }
            try skipDigits(what: "a digit in the exponent")
        }
        let literal = UnsafeRawBufferPointer(rebasing: text[start..<position])
        // Integers beyond −2⁶³ … 2⁶⁴−1 fall through to the nearest real.
        if isInteger, let integer = PropertyListInteger(decimalText: literal) { return .integer(integer) }
        guard let real = Double(String(decoding: literal, as: UTF8.self)) else {
            throw failure(.invalidScalar, at: start, "number is not representable as a real")
        }
        return .real(real)
    }

    mutating func skipDigits(what: String) throws {
        let start = position
        while position < end, text[position] &- 0x30 < 10 { position += 1 }
        guard position > start else { throw failure(.syntax, at: position, "expected \(what), found \(describe(at: position))") }
    }

    /// A string, the reader at its opening quote.
    mutating func parseString() throws -> String {
        let open = position
        position += 1
        let start = position
        while position < end {
            let byte = text[position]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            position += 1
        }
        if position < end, text[position] == UInt8(ascii: "\"") {
            // No escapes: the common case, one copy straight into the String.
            position += 1
            return try makeString(UnsafeRawBufferPointer(rebasing: text[start..<position - 1]), at: start)
        }
        state.scratch.removeAll(keepingCapacity: true)
        state.scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[start..<position]))
        while true {
            guard position < end else {
                throw failure(.syntax, at: open, "unterminated string: expected a closing '\"'")
            }
            let byte = text[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                break
            }
            if byte == UInt8(ascii: "\\") {
                try appendEscape()
            } else if byte < 0x20 {
                throw failure(.syntax, at: position, "control character 0x\(String(byte, radix: 16, uppercase: true)) must be escaped in a string")
            } else {
                let run = position
                while position < end, text[position] != UInt8(ascii: "\""), text[position] != UInt8(ascii: "\\"), text[position] >= 0x20 {
                    position += 1
                }
                state.scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[run..<position]))
            }
        }
        return try state.scratch.withUnsafeBytes { try makeString($0, at: start) }
    }

    /// Decodes the escape at the backslash under the reader into `state.scratch`.
    mutating func appendEscape() throws {
        let backslash = position
        let letter = byte(at: position + 1)
        position += 2
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): state.scratch.append(letter)
        case UInt8(ascii: "b"): state.scratch.append(0x08)
        case UInt8(ascii: "f"): state.scratch.append(0x0C)
        case UInt8(ascii: "n"): state.scratch.append(0x0A)
        case UInt8(ascii: "r"): state.scratch.append(0x0D)
        case UInt8(ascii: "t"): state.scratch.append(0x09)
        case UInt8(ascii: "u"):
            try appendUTF16Escape(backslash: backslash, letter: letter, digits: 4...4)
        default:
            throw failure(.syntax, at: backslash, "invalid escape: expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
        }
    }
}

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

    /// Creates a writer, choosing pretty (the default) or compact output.
    public init(maximumDepth: Int = PropertyListLimits.default.maximumDepth, prettyPrinted: Bool = true) {
        self.maximumDepth = maximumDepth
        self.prettyPrinted = prettyPrinted
    }

    /// Encodes `value` as JSON.
    public func write(_ value: PropertyListValue) throws -> Data {
        try JSONEmitter(prettyPrinted: prettyPrinted, maximumDepth: maximumDepth).document(value, maximumOutputSize: maximumOutputSize)
    }
}
