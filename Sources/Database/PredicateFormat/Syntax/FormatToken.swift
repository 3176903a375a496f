/// A token of the format language, with the 1-based column where it starts.
struct FormatToken: Equatable {
    enum Kind: Equatable {
        case identifier(String)
        /// `#name`: a key that may be a reserved word.
        case escapedIdentifier(String)
        case keyword(Keyword)
        case integer(Int64)
        case double(Double)
        case string(String)
        /// `$name`.
        case variable(String)
        /// `@count` and friends (the name after `@`, lowercased).
        case atOperator(String)
        /// `%@`, `%K`, `%d`, … (the letters after `%`).
        case specifier(String)
        case comparison(ComparisonOperator)
        /// `&&`, `||`, `!`.
        case and, or, not
        case leftParen, rightParen, leftBrace, rightBrace, leftBracket, rightBracket
        case comma, dot, minus
        case end
    }

    var kind: Kind
    var column: Int
    /// The source text of the token, for error messages.
    var text: String
}

/// The reserved words, matched case-insensitively.
enum Keyword: String, CaseIterable {
    case and = "AND", or = "OR", not = "NOT"
    case any = "ANY", all = "ALL", none = "NONE", some = "SOME"
    case `in` = "IN", between = "BETWEEN", beginsWith = "BEGINSWITH", endsWith = "ENDSWITH"
    case contains = "CONTAINS", like = "LIKE", matches = "MATCHES"
    case truePredicate = "TRUEPREDICATE", falsePredicate = "FALSEPREDICATE"
    case `nil` = "NIL", null = "NULL", `true` = "TRUE", `false` = "FALSE", yes = "YES", no = "NO"
    case `self` = "SELF", subquery = "SUBQUERY", cast = "CAST"
    case first = "FIRST", last = "LAST", size = "SIZE"

    static let byName: [String: Keyword] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    static func named(_ word: String) -> Keyword? { byName[word.uppercased()] }
}
