import OrderedCollections

/// The recursive-descent parser behind ``OpenStepPropertyListReader``,
/// scanning UTF-8 bytes. Recursion is bounded by the depth limit, so
/// hostile nesting fails fast instead of exhausting the stack. With
/// ``ValidatedText`` it makes no values (`-lint`).
struct OpenStepParser<Output: TextParseOutput>: TextPropertyListParser {
    static var format: PropertyListFormat { .openStep }
    var state: TextParserState

    // MARK: Trivia

    /// Whether U+2028 or U+2029 (which CF counts as whitespace) starts at `offset`.
    @inline(__always) func isUnicodeSeparator(at offset: Int) -> Bool {
        text[offset] == 0xE2 && byte(at: offset + 1) == 0x80 && (byte(at: offset + 2) | 1) == 0xA9
    }

    /// Skips whitespace and comments.
    mutating func skipTrivia() throws {
        while position < end {
            switch text[position] {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C:
                position += 1
            case UInt8(ascii: "/"):
                let next = byte(at: position + 1)
                if next == UInt8(ascii: "/") {
                    position += 2
                    while position < end, text[position] != 0x0A, text[position] != 0x0D, !isUnicodeSeparator(at: position) {
                        position += 1
                    }
                } else if next == UInt8(ascii: "*") {
                    let start = position
                    position += 2
                    while true {
                        guard position + 1 < end else {
                            throw failure(.syntax, at: start, "unterminated /* comment: expected '*/'")
                        }
                        if text[position] == UInt8(ascii: "*"), text[position + 1] == UInt8(ascii: "/") { break }
                        position += 1
                    }
                    position += 2
                } else {
                    return // an unquoted string starting with '/'
                }
            case 0xE2 where isUnicodeSeparator(at: position):
                position += 3
            default:
                return
            }
        }
    }

    // MARK: Structure

    /// The whole input: one value, or the entries of a `.strings` file.
    mutating func parseDocument() throws -> PropertyListValue {
        try skipTrivia()
        guard position < end else { return .dictionary([:]) }
        let start = position
        let value = try parseValue(depth: 0)
        try skipTrivia()
        guard position < end else { return value }
        let next = text[position]
        if case .string = value, next == UInt8(ascii: "=") || next == UInt8(ascii: ";") {
            // `key = value; …` without braces: a .strings file. Start over as dictionary entries.
            position = start
            state.objectCount = 0
            return try parseDictionaryEntries(depth: 0, openedAt: nil)
        }
        throw failure(.syntax, at: position, "expected the end of the input after the top-level value, found \(describe(at: position))")
    }

    mutating func parseValue(depth: Int) throws -> PropertyListValue {
        guard position < end else {
            throw failure(.syntax, at: position, "unexpected end of the input: expected a value")
        }
        let byte = text[position]
        switch byte {
        case UInt8(ascii: "{"):
            try enterContainer(depth: depth)
            let open = position
            position += 1
            return try parseDictionaryEntries(depth: depth, openedAt: open)
        case UInt8(ascii: "("):
            try enterContainer(depth: depth)
            return try parseArray(depth: depth)
        case UInt8(ascii: "<"):
            try countObject(at: position)
            return try parseAngleBracketed()
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            try countObject(at: position)
            return .string(try parseQuotedString())
        default:
            if Self.isUnquotedCharacter(byte), !(byte == 0xE2 && isUnicodeSeparator(at: position)) {
                try countObject(at: position)
                return .string(try parseUnquotedString())
            }
            throw failure(.syntax, at: position,
                          "expected a value (a string, '{', '(' or '<'), found \(describe(at: position))")
        }
    }

    mutating func enterContainer(depth: Int) throws {
        guard depth < limits.maximumDepth else {
            throw failure(.depthLimitExceeded, at: position, "arrays and dictionaries nest deeper than \(limits.maximumDepth) levels")
        }
        try countObject(at: position)
    }

    /// Entries up to the `}` matching the `{` at `openedAt`, or up to the end
    /// of the input for a `.strings` file (`openedAt == nil`).
    mutating func parseDictionaryEntries(depth: Int, openedAt: Int?) throws -> PropertyListValue {
        var entries: OrderedDictionary<String, PropertyListValue> = [:]
        while true {
            try skipTrivia()
            guard position < end else {
                guard let openedAt else { break }
                throw failure(.syntax, at: position,
                              "unexpected end of the input: expected '}' to close the dictionary opened at \(lineAndColumn(of: openedAt))")
            }
            let lead = text[position]
            if lead == UInt8(ascii: "}"), openedAt != nil {
                position += 1
                break
            }
            let key: String
            let keyStart = position
            try countObject(at: position)
            if lead == UInt8(ascii: "\"") || lead == UInt8(ascii: "'") {
                key = try parseQuotedString()
            } else if Self.isUnquotedCharacter(lead), !(lead == 0xE2 && isUnicodeSeparator(at: position)) {
                key = try parseUnquotedString()
            } else {
                let expected = openedAt == nil ? "a string key" : "a string key or '}'"
                throw failure(.syntax, at: position, "expected \(expected), found \(describe(at: position))")
            }
            try skipTrivia()
            let value: PropertyListValue
            if byte(at: position) == UInt8(ascii: ";") {
                value = .string(key) // `key;` is short for `key = key;`
            } else if byte(at: position) == UInt8(ascii: "=") {
                position += 1
                try skipTrivia()
                value = try parseValue(depth: depth + 1)
                try skipTrivia()
            } else {
                throw failure(.syntax, at: position, "expected '=' or ';' after the key \(InputExcerpt.quoted(keyText(key, at: keyStart))), found \(describe(at: position))")
            }
            guard byte(at: position) == UInt8(ascii: ";") else {
                throw failure(.syntax, at: position, "expected ';' after the value for the key \(InputExcerpt.quoted(keyText(key, at: keyStart))), found \(describe(at: position))")
            }
            position += 1
            if Self.buildsValues { entries[key] = value }
        }
        // A lone `CF$UID` entry with a typed integer is how the writer spells a keyed-archive UID.
        if entries.count == 1, let uid = entries["CF$UID"], case .integer(let number) = uid, let value = number.uint64Value {
            return .uid(PropertyListUID(value))
        }
        return .dictionary(entries)
    }

    mutating func parseArray(depth: Int) throws -> PropertyListValue {
        let open = position
        position += 1
        var elements: [PropertyListValue] = []
        while true {
            try skipTrivia()
            guard position < end else {
                throw failure(.syntax, at: position,
                              "unexpected end of the input: expected ')' to close the array opened at \(lineAndColumn(of: open))")
            }
            if text[position] == UInt8(ascii: ")") {
                position += 1
                return .array(elements)
            }
            let element = try parseValue(depth: depth + 1)
            if Self.buildsValues { elements.append(element) }
            try skipTrivia()
            switch byte(at: position) {
            case UInt8(ascii: ","):
                position += 1
            case UInt8(ascii: ")"):
                position += 1
                return .array(elements)
            default:
                if position >= end {
                    throw failure(.syntax, at: position,
                                  "unexpected end of the input: expected ')' to close the array opened at \(lineAndColumn(of: open))")
                }
                throw failure(.syntax, at: position, "expected ',' or ')' after an array element, found \(describe(at: position))")
            }
        }
    }

    /// The key read at `start`, for a message: `key` when decoding; when
    /// validating, which made an empty one, the key read again as decoding
    /// reads it (it was read once, so this succeeds).
    func keyText(_ key: String, at start: Int) -> String {
        guard !Self.buildsValues else { return key }
        var decoder = OpenStepParser<DecodedText>(state: TextParserState(text: text, limits: limits, position: start))
        let lead = text[start]
        let quoted = lead == UInt8(ascii: "\"") || lead == UInt8(ascii: "'")
        return (try? quoted ? decoder.parseQuotedString() : decoder.parseUnquotedString()) ?? key
    }
}
