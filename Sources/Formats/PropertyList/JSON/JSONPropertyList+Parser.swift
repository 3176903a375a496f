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
