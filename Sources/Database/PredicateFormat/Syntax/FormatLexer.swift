/// Splits a format into tokens. Columns count characters from 1.
struct FormatLexer {
    private let characters: [Character]
    private var index = 0

    init(_ format: String) { characters = Array(format) }

    static func tokenize(_ format: String) throws(PredicateFormatError) -> [FormatToken] {
        var lexer = FormatLexer(format)
        var tokens: [FormatToken] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func peek(_ offset: Int = 0) -> Character? {
        let position = index + offset
        return position < characters.count ? characters[position] : nil
    }

    private func text(from start: Int) -> String { String(characters[start..<index]) }

    mutating func next() throws(PredicateFormatError) -> FormatToken {
        while let character = peek(), character.isWhitespace { index += 1 }
        let start = index
        let column = start + 1
        guard let character = peek() else { return FormatToken(kind: .end, column: column, text: "end of format") }
        func token(_ kind: FormatToken.Kind, length: Int) -> FormatToken {
            index += length
            return FormatToken(kind: kind, column: column, text: text(from: start))
        }
        switch character {
        case "(": return token(.leftParen, length: 1)
        case ")": return token(.rightParen, length: 1)
        case "{": return token(.leftBrace, length: 1)
        case "}": return token(.rightBrace, length: 1)
        case "[": return token(.leftBracket, length: 1)
        case "]": return token(.rightBracket, length: 1)
        case ",": return token(.comma, length: 1)
        case "-": return token(.minus, length: 1)
        case "=":
            if peek(1) == "=" { return token(.comparison(.equalTo), length: 2) }
            if peek(1) == "<" { return token(.comparison(.lessThanOrEqualTo), length: 2) }
            if peek(1) == ">" { return token(.comparison(.greaterThanOrEqualTo), length: 2) }
            return token(.comparison(.equalTo), length: 1)
        case "!":
            if peek(1) == "=" { return token(.comparison(.notEqualTo), length: 2) }
            return token(.not, length: 1)
        case "<":
            if peek(1) == "=" { return token(.comparison(.lessThanOrEqualTo), length: 2) }
            if peek(1) == ">" { return token(.comparison(.notEqualTo), length: 2) }
            return token(.comparison(.lessThan), length: 1)
        case ">":
            if peek(1) == "=" { return token(.comparison(.greaterThanOrEqualTo), length: 2) }
            return token(.comparison(.greaterThan), length: 1)
        case "&":
            if peek(1) == "&" { return token(.and, length: 2) }
        case "|":
            if peek(1) == "|" { return token(.or, length: 2) }
        case "\"", "'":
            return try string(quote: character, column: column)
        case "%":
            return try specifier(column: column)
        case "$":
            let name = try prefixedName(column: column, what: "a variable name")
            return FormatToken(kind: .variable(name), column: column, text: text(from: start))
        case "@":
            let name = try prefixedName(column: column, what: "an operator name")
            return FormatToken(kind: .atOperator(name.lowercased()), column: column, text: text(from: start))
        case "#":
            let name = try prefixedName(column: column, what: "a key")
            return FormatToken(kind: .escapedIdentifier(name), column: column, text: text(from: start))
        case ".":
            if let next = peek(1), next.isASCII, next.isNumber { return try number(column: column) }
            return token(.dot, length: 1)
        default:
            if character.isASCII, character.isNumber { return try number(column: column) }
            if Self.startsIdentifier(character) {
                let name = identifierBody()
                if let keyword = Keyword.named(name) {
                    return FormatToken(kind: .keyword(keyword), column: column, text: name)
                }
                return FormatToken(kind: .identifier(name), column: column, text: name)
            }
        }
        throw PredicateFormatError(.unexpectedCharacter, column: column, text: String(character))
    }

    private static func startsIdentifier(_ character: Character) -> Bool {
        character == "_" || character.isLetter
    }

    /// The name after a `$`, `@` or `#` sigil.
    private mutating func prefixedName(column: Int, what: String) throws(PredicateFormatError) -> String {
        let sigil = String(characters[index])
        index += 1
        let name = identifierBody()
        guard !name.isEmpty else {
            throw PredicateFormatError(.unexpectedCharacter, column: column, text: sigil, detail: "\(what) must follow \(sigil)")
        }
        return name
    }

    private mutating func identifierBody() -> String {
        let start = index
        while let character = peek(), Self.startsIdentifier(character) || character.isNumber { index += 1 }
        return text(from: start)
    }

    private mutating func specifier(column: Int) throws(PredicateFormatError) -> FormatToken {
        let start = index
        index += 1
        var letters = ""
        while let character = peek(), character.isLetter || character == "@" {
            letters.append(character)
            index += 1
            // `%l` and `%ll` prefix a conversion; everything else is complete after one character.
            if character != "l" && character != "q" && character != "h" { break }
        }
        let known: Set<String> = ["@", "K", "d", "i", "ld", "li", "lld", "qd", "hd", "u", "lu", "f", "lf", "e", "g", "c"]
        guard known.contains(letters) else {
            throw PredicateFormatError(.unknownSpecifier, column: column, text: text(from: start),
                                       detail: "use %@, %K, %d, %i, %ld, %f or %lf")
        }
        return FormatToken(kind: .specifier(letters), column: column, text: text(from: start))
    }

    private mutating func string(quote: Character, column: Int) throws(PredicateFormatError) -> FormatToken {
        let start = index
        index += 1
        var value = ""
        while true {
            guard let character = peek() else {
                throw PredicateFormatError(.unterminatedString, column: column, text: text(from: start),
                                           detail: "no closing \(quote)")
            }
            index += 1
            if character == quote { break }
            guard character == "\\" else { value.append(character); continue }
            let escapeColumn = index
            guard let escaped = peek() else {
                throw PredicateFormatError(.unterminatedString, column: column, text: text(from: start),
                                           detail: "no closing \(quote)")
            }
            index += 1
            switch escaped {
            case "n": value.append("\n")
            case "t": value.append("\t")
            case "r": value.append("\r")
            case "0": value.append("\0")
            case "\"", "'", "\\": value.append(escaped)
            case "u":
                var hex = ""
                for _ in 0..<4 {
                    guard let digit = peek(), digit.isHexDigit else { break }
                    hex.append(digit)
                    index += 1
                }
                guard hex.count == 4, let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) else {
                    throw PredicateFormatError(.invalidEscape, column: escapeColumn, text: "\\u" + hex,
                                               detail: "\\u needs four hex digits of a scalar")
                }
                value.unicodeScalars.append(scalar)
            default:
                throw PredicateFormatError(.invalidEscape, column: escapeColumn, text: "\\" + String(escaped))
            }
        }
        return FormatToken(kind: .string(value), column: column, text: text(from: start))
    }

    private mutating func number(column: Int) throws(PredicateFormatError) -> FormatToken {
        let start = index
        if peek() == "0", let radixMark = peek(1), "xXoObB".contains(radixMark) {
            index += 2
            let radix = "xX".contains(radixMark) ? 16 : "oO".contains(radixMark) ? 8 : 2
            let digitsStart = index
            while let character = peek(), character.isHexDigit || character.isLetter { index += 1 }
            let digits = text(from: digitsStart)
            guard let value = UInt64(digits, radix: radix) else {
                throw PredicateFormatError(.invalidNumber, column: column, text: text(from: start))
            }
            return FormatToken(kind: .integer(Int64(bitPattern: value)), column: column, text: text(from: start))
        }
        var isDouble = false
        while let character = peek(), character.isASCII, character.isNumber { index += 1 }
        if peek() == ".", let next = peek(1), next.isASCII, next.isNumber {
            isDouble = true
            index += 1
            while let character = peek(), character.isASCII, character.isNumber { index += 1 }
        } else if peek() == ".", index > start, !(peek(1).map(Self.startsIdentifier) ?? false), peek(1) != "@" {
            // `1.` is a double; `1.foo` is left to the parser to reject.
            isDouble = true
            index += 1
        }
        if let e = peek(), e == "e" || e == "E" {
            var lookahead = 1
            if let sign = peek(1), sign == "+" || sign == "-" { lookahead = 2 }
            if let digit = peek(lookahead), digit.isASCII, digit.isNumber {
                isDouble = true
                index += lookahead
                while let character = peek(), character.isASCII, character.isNumber { index += 1 }
            }
        }
        if let trailing = peek(), Self.startsIdentifier(trailing) {
            while let character = peek(), Self.startsIdentifier(character) || character.isNumber { index += 1 }
            throw PredicateFormatError(.invalidNumber, column: column, text: text(from: start))
        }
        let literal = text(from: start)
        if !isDouble, let value = Int64(literal) {
            return FormatToken(kind: .integer(value), column: column, text: literal)
        }
        guard let value = Double(literal) ?? Double(literal + "0"), value.isFinite else {
            throw PredicateFormatError(.invalidNumber, column: column, text: literal)
        }
        return FormatToken(kind: .double(value), column: column, text: literal)
    }
}
