import Foundation

/// The recursive-descent parser of the format language.
///
/// Grammar (keywords case-insensitive):
/// ```
/// predicate  := and ( (OR | "||") and )*
/// and        := not ( (AND | "&&") not )*
/// not        := (NOT | "!") not | "(" predicate ")" | TRUEPREDICATE | FALSEPREDICATE | comparison
/// comparison := [ANY | SOME | ALL | NONE] expression operator ["[" options "]"] expression
/// expression := primary ( "." (key | "@" operator | %K) )*
/// primary    := literal | "-" number | SELF | key | "#" key | "$" variable | "%" specifier
///             | "{" [expression ("," expression)*] "}" | SUBQUERY "(" expression "," $var "," predicate ")"
///             | CAST "(" expression "," string ")"
/// ```
struct FormatParser {
    private var tokens: [FormatToken]
    private var position = 0
    private var arguments: [AttributeValue]
    private var nextArgument = 0
    private var depth = 0
    /// Deep enough for any sane predicate, shallow enough never to exhaust a thread's stack.
    private static let maximumDepth = 200

    init(format: String, arguments: [AttributeValue]) throws(PredicateFormatError) {
        tokens = try FormatLexer.tokenize(format)
        self.arguments = arguments
    }

    mutating func parseWhole() throws(PredicateFormatError) -> FormatPredicate {
        let predicate = try parsePredicate()
        guard current.kind == .end else { throw unexpected(current, expecting: "AND, OR or the end") }
        return predicate
    }

    // MARK: Tokens

    private var current: FormatToken { tokens[position] }

    private mutating func advance() -> FormatToken {
        let token = tokens[position]
        if token.kind != .end { position += 1 }
        return token
    }

    private func unexpected(_ token: FormatToken, expecting: String) -> PredicateFormatError {
        if token.kind == .end {
            return PredicateFormatError(.unexpectedEnd, column: token.column, text: token.text, detail: "expected \(expecting)")
        }
        return PredicateFormatError(.unexpectedToken, column: token.column, text: token.text, detail: "expected \(expecting)")
    }

    private mutating func expect(_ kind: FormatToken.Kind, _ description: String) throws(PredicateFormatError) {
        guard current.kind == kind else { throw unexpected(current, expecting: description) }
        _ = advance()
    }

    private mutating func nested<T>(_ body: (inout FormatParser) throws(PredicateFormatError) -> T) throws(PredicateFormatError) -> T {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            throw PredicateFormatError(.tooDeep, column: current.column, text: current.text,
                                       detail: "nesting deeper than \(Self.maximumDepth)")
        }
        return try body(&self)
    }

    // MARK: Predicates

    private mutating func parsePredicate() throws(PredicateFormatError) -> FormatPredicate {
        try nested { (parser: inout FormatParser) throws(PredicateFormatError) in
            var terms = [try parser.parseAnd()]
            while parser.current.kind == .or || parser.current.kind == .keyword(.or) {
                _ = parser.advance()
                terms.append(try parser.parseAnd())
            }
            return terms.count == 1 ? terms[0] : .or(terms)
        }
    }

    private mutating func parseAnd() throws(PredicateFormatError) -> FormatPredicate {
        var terms = [try parseNot()]
        while current.kind == .and || current.kind == .keyword(.and) {
            _ = advance()
            terms.append(try parseNot())
        }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    private mutating func parseNot() throws(PredicateFormatError) -> FormatPredicate {
        switch current.kind {
        case .not, .keyword(.not):
            _ = advance()
            return .not(try nested { (parser: inout FormatParser) throws(PredicateFormatError) in try parser.parseNot() })
        case .leftParen:
            _ = advance()
            let inner = try parsePredicate()
            try expect(.rightParen, "\")\"")
            return inner
        case .keyword(.truePredicate):
            _ = advance()
            return .constant(true)
        case .keyword(.falsePredicate):
            _ = advance()
            return .constant(false)
        default:
            return try parseComparison()
        }
    }

    private mutating func parseComparison() throws(PredicateFormatError) -> FormatPredicate {
        var modifier = ComparisonModifier.direct
        var negated = false
        switch current.kind {
        case .keyword(.any), .keyword(.some): modifier = .any; _ = advance()
        case .keyword(.all): modifier = .all; _ = advance()
        case .keyword(.none): modifier = .any; negated = true; _ = advance()
        default: break
        }
        let left = try parseExpression()
        let operatorToken = advance()
        let op: ComparisonOperator
        switch operatorToken.kind {
        case .comparison(let comparison): op = comparison
        case .keyword(.in): op = .in
        case .keyword(.between): op = .between
        case .keyword(.beginsWith): op = .beginsWith
        case .keyword(.endsWith): op = .endsWith
        case .keyword(.contains): op = .contains
        case .keyword(.like): op = .like
        case .keyword(.matches): op = .matches
        default: throw unexpected(operatorToken, expecting: "a comparison operator")
        }
        let options = try parseOptions()
        let right: FormatExpression
        if (op == .in || op == .between), current.kind == .leftParen {
            right = try parseList(closing: .rightParen, closingText: ")")
        } else {
            right = try parseExpression()
        }
        if op == .between {
            try checkBetweenBounds(right, column: operatorToken.column)
        }
        let comparison = FormatPredicate.comparison(FormatComparison(left, op, right, modifier: modifier, options: options))
        return negated ? .not(comparison) : comparison
    }

    private func checkBetweenBounds(_ bounds: FormatExpression, column: Int) throws(PredicateFormatError) {
        switch bounds {
        case .aggregate(let members) where members.count == 2: return
        case .constant(.collection(let members)) where members.count == 2: return
        case .aggregate, .constant:
            throw PredicateFormatError(.invalidOperand, column: column, text: "BETWEEN", detail: "BETWEEN needs {lower, upper}")
        default: return
        }
    }

    private mutating func parseOptions() throws(PredicateFormatError) -> ComparisonOptions {
        guard current.kind == .leftBracket else { return [] }
        _ = advance()
        let token = advance()
        guard case .identifier(let letters) = token.kind else { throw unexpected(token, expecting: "c, d or cd") }
        var options: ComparisonOptions = []
        for (offset, letter) in letters.enumerated() {
            switch letter {
            case "c", "C": options.insert(.caseInsensitive)
            case "d", "D": options.insert(.diacriticInsensitive)
            case "n", "N": options.insert(.normalized)
            case "l", "L": break  // locale-sensitive: the folding is the same in every locale here
            default:
                throw PredicateFormatError(.invalidModifier, column: token.column + offset, text: String(letter),
                                           detail: "modifiers are c, d, n")
            }
        }
        try expect(.rightBracket, "\"]\"")
        return options
    }

    // MARK: Expressions

    private mutating func parseExpression() throws(PredicateFormatError) -> FormatExpression {
        try nested { (parser: inout FormatParser) throws(PredicateFormatError) in
            let start = parser.current
            var expression = try parser.parsePrimary()
            var components: [KeyPathComponent] = []
            if case .keyPath(let base, let path) = expression {
                expression = base
                components = path
            }
            while parser.current.kind == .dot {
                _ = parser.advance()
                let token = parser.advance()
                switch token.kind {
                case .identifier(let name), .escapedIdentifier(let name):
                    components.append(.key(name))
                case .atOperator(let name):
                    components.append(.collectionOperator(try Self.collectionOperator(name, token)))
                case .specifier("K"):
                    components += try parser.keyPathArgument(token)
                default:
                    throw parser.unexpected(token, expecting: "a key after \".\"")
                }
            }
            guard !components.isEmpty else { return expression }
            switch expression {
            case .evaluatedObject, .variable, .subquery, .aggregate, .constant(.collection): break
            default:
                throw PredicateFormatError(.invalidOperand, column: start.column, text: start.text,
                                           detail: "a constant has no keys")
            }
            return .keyPath(expression, components)
        }
    }

    private static func collectionOperator(_ name: String, _ token: FormatToken) throws(PredicateFormatError) -> CollectionOperator {
        guard let op = CollectionOperator(rawValue: name) else {
            throw PredicateFormatError(.unexpectedToken, column: token.column, text: token.text,
                                       detail: "collection operators are @count, @sum, @avg, @min, @max")
        }
        return op
    }

    private mutating func takeArgument(_ token: FormatToken) throws(PredicateFormatError) -> AttributeValue {
        guard nextArgument < arguments.count else {
            throw PredicateFormatError(.missingArgument, column: token.column, text: token.text,
                                       detail: "argument \(nextArgument + 1) of \(arguments.count)")
        }
        defer { nextArgument += 1 }
        return arguments[nextArgument]
    }

    private mutating func keyPathArgument(_ token: FormatToken) throws(PredicateFormatError) -> [KeyPathComponent] {
        guard case .string(let path) = try takeArgument(token), !path.isEmpty else {
            throw PredicateFormatError(.badArgument, column: token.column, text: token.text, detail: "%K needs a key path string")
        }
        var components: [KeyPathComponent] = []
        for part in path.split(separator: ".", omittingEmptySubsequences: false) {
            if part.hasPrefix("@") {
                guard let op = CollectionOperator(rawValue: part.dropFirst().lowercased()) else {
                    throw PredicateFormatError(.badArgument, column: token.column, text: path, detail: "unknown collection operator")
                }
                components.append(.collectionOperator(op))
            } else {
                guard !part.isEmpty, part.allSatisfy({ $0 == "_" || $0.isLetter || $0.isNumber }) else {
                    throw PredicateFormatError(.badArgument, column: token.column, text: path, detail: "not a key path")
                }
                components.append(.key(String(part)))
            }
        }
        return components
    }

    private mutating func parseList(closing: FormatToken.Kind, closingText: String) throws(PredicateFormatError) -> FormatExpression {
        _ = advance()
        var members: [FormatExpression] = []
        if current.kind == closing {
            _ = advance()
            return Self.aggregate(members)
        }
        while true {
            members.append(try parseExpression())
            let token = advance()
            if token.kind == closing { return Self.aggregate(members) }
            guard token.kind == .comma else { throw unexpected(token, expecting: "\",\" or \"\(closingText)\"") }
        }
    }

    /// A literal list of constants is one constant, so `{1, 2}` and a `%@` array argument parse alike.
    private static func aggregate(_ members: [FormatExpression]) -> FormatExpression {
        var values: [AttributeValue] = []
        for member in members {
            guard case .constant(let value) = member else { return .aggregate(members) }
            values.append(value)
        }
        return .constant(.collection(values))
    }

    private mutating func parsePrimary() throws(PredicateFormatError) -> FormatExpression {
        let token = current
        switch token.kind {
        case .integer(let value): _ = advance(); return .constant(.integer(value))
        case .double(let value): _ = advance(); return .constant(.double(value))
        case .string(let value): _ = advance(); return .constant(.string(value))
        case .minus:
            _ = advance()
            let number = advance()
            switch number.kind {
            case .integer(let value) where value != .min: return .constant(.integer(-value))
            case .double where number.text == "9223372036854775808": return .constant(.integer(.min))
            case .double(let value): return .constant(.double(-value))
            default: throw unexpected(number, expecting: "a number after \"-\"")
            }
        case .keyword(.true), .keyword(.yes): _ = advance(); return .constant(.bool(true))
        case .keyword(.false), .keyword(.no): _ = advance(); return .constant(.bool(false))
        case .keyword(.nil), .keyword(.null): _ = advance(); return .constant(.null)
        case .keyword(.self): _ = advance(); return .evaluatedObject
        case .identifier(let name), .escapedIdentifier(let name):
            _ = advance()
            return .keyPath(.evaluatedObject, [.key(name)])
        case .variable(let name): _ = advance(); return .variable(name)
        case .leftBrace: return try parseList(closing: .rightBrace, closingText: "}")
        case .specifier(let letters):
            _ = advance()
            return try argument(letters, token)
        case .keyword(.subquery): return try parseSubquery()
        case .keyword(.cast): return try parseCast()
        default:
            throw unexpected(token, expecting: "an expression")
        }
    }

    private mutating func argument(_ letters: String, _ token: FormatToken) throws(PredicateFormatError) -> FormatExpression {
        if letters == "K" { return .keyPath(.evaluatedObject, try keyPathArgument(token)) }
        let value = try takeArgument(token)
        switch letters {
        case "@":
            return .constant(value)
        case "f", "lf", "e", "g":
            switch value {
            case .double: return .constant(value)
            case .integer(let integer): return .constant(.double(Double(integer)))
            case .decimal(let decimal): return .constant(.double(NSDecimalNumber(decimal: decimal).doubleValue))
            default: break
            }
        default:  // %d, %i, %ld, %u, %c …
            switch value {
            case .integer: return .constant(value)
            case .bool(let flag): return .constant(.integer(flag ? 1 : 0))
            case .double(let double) where double.rounded() == double && abs(double) < 9.2e18:
                return .constant(.integer(Int64(double)))
            default: break
            }
        }
        throw PredicateFormatError(.badArgument, column: token.column, text: token.text,
                                   detail: "argument \(nextArgument) is not a number")
    }

    private mutating func parseSubquery() throws(PredicateFormatError) -> FormatExpression {
        _ = advance()
        try expect(.leftParen, "\"(\" after SUBQUERY")
        let collection = try parseExpression()
        try expect(.comma, "\",\"")
        let variableToken = advance()
        guard case .variable(let variable) = variableToken.kind else {
            throw unexpected(variableToken, expecting: "a $variable")
        }
        try expect(.comma, "\",\"")
        let predicate = try parsePredicate()
        try expect(.rightParen, "\")\"")
        return .subquery(collection: collection, variable: variable, predicate: predicate)
    }

    /// `CAST(x, "NSDate")` and friends: how the canonical description writes constants with no literal syntax.
    private mutating func parseCast() throws(PredicateFormatError) -> FormatExpression {
        let castToken = advance()
        try expect(.leftParen, "\"(\" after CAST")
        let operand = try parseExpression()
        try expect(.comma, "\",\"")
        let classToken = advance()
        guard case .string(let className) = classToken.kind else { throw unexpected(classToken, expecting: "a class name string") }
        try expect(.rightParen, "\")\"")
        guard case .constant(let value) = operand, let cast = Self.cast(value, to: className) else {
            throw PredicateFormatError(.invalidOperand, column: castToken.column, text: className,
                                       detail: "CAST takes a constant to NSDate, NSDecimalNumber, NSUUID, NSURL, NSData or NSNumber")
        }
        return .constant(cast)
    }

    private static func cast(_ value: AttributeValue, to className: String) -> AttributeValue? {
        switch (className, value) {
        case ("NSDate", .integer(let seconds)): .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
        case ("NSDate", .double(let seconds)): .date(Date(timeIntervalSinceReferenceDate: seconds))
        case ("NSDecimalNumber", .string(let text)): Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")).map { .decimal($0) }
        case ("NSDecimalNumber", .integer(let integer)): .decimal(Decimal(integer))
        case ("NSNumber", .string(let text)): Int64(text).map { .integer($0) } ?? Double(text).map { .double($0) }
        case ("NSNumber", .integer), ("NSNumber", .double): value
        case ("NSUUID", .string(let text)): UUID(uuidString: text).map { .uuid($0) }
        case ("NSURL", .string(let text)): URL(string: text).map { .uri($0) }
        case ("NSData", .string(let text)): Data(base64Encoded: text).map { .data($0) }
        case ("NSString", .string): value
        default: nil
        }
    }
}

extension FormatPredicate {
    /// Parses a format, replacing `%@`, `%K`, `%d`, `%f` … by `arguments` in order.
    ///
    /// - Throws: ``PredicateFormatError`` naming the column of the first problem.
    public init(format: String, arguments: [AttributeValue]) throws(PredicateFormatError) {
        var parser = try FormatParser(format: format, arguments: arguments)
        self = try parser.parseWhole()
    }

    /// Parses a format with Swift values as its arguments:
    /// `try FormatPredicate(format: "name CONTAINS[c] %@ AND age > %d", "lamp", 3)`.
    public init(format: String, _ arguments: any FormatArgumentConvertible...) throws(PredicateFormatError) {
        try self.init(format: format, arguments: arguments.map(\.formatArgumentValue))
    }
}
