import Foundation

/// A predicate parsed from NSPredicate's format language.
///
/// The tree is a value: `Sendable` and `Hashable`, and its ``description``
/// is canonical and parses back to an equal tree, so a store can fingerprint
/// a fetch request by it.
///
/// ```swift
/// let predicate = try FormatPredicate(format: "name CONTAINS[c] %@", "lamp")
/// print(predicate)   // name CONTAINS[c] "lamp"
/// ```
public indirect enum FormatPredicate: Sendable, Hashable {
    /// `TRUEPREDICATE` (true) or `FALSEPREDICATE` (false).
    case constant(Bool)
    /// A comparison between two expressions.
    case comparison(FormatComparison)
    /// `NOT p`, `!p`; `NONE x == y` parses as `NOT ANY x == y`, as NSPredicate does.
    case not(FormatPredicate)
    /// `a AND b AND …`, `&&`: a chain without parentheses is one node.
    case and([FormatPredicate])
    /// `a OR b OR …`, `||`.
    case or([FormatPredicate])
}

/// A comparison: `modifier left operator[options] right`.
public struct FormatComparison: Sendable, Hashable {
    /// How a collection on the left is quantified.
    public var modifier: ComparisonModifier
    public var left: FormatExpression
    public var `operator`: ComparisonOperator
    public var right: FormatExpression
    /// The `[c]`, `[d]`, `[n]` modifiers.
    public var options: ComparisonOptions

    public init(
        _ left: FormatExpression, _ operator: ComparisonOperator, _ right: FormatExpression,
        modifier: ComparisonModifier = .direct, options: ComparisonOptions = []
    ) {
        self.modifier = modifier
        self.left = left
        self.operator = `operator`
        self.right = right
        self.options = options
    }
}

/// `ANY`/`SOME`, `ALL`, or none. `NONE` is `NOT ANY`.
public enum ComparisonModifier: Sendable, Hashable {
    /// No keyword: a plain comparison. A key path through a to-many
    /// relationship on the left is still compared as `ANY`, as Core Data's
    /// SQL store does.
    case direct
    case any
    case all
}

/// The comparison operators of the format language.
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    case equalTo = "=="
    case notEqualTo = "!="
    case lessThan = "<"
    case lessThanOrEqualTo = "<="
    case greaterThan = ">"
    case greaterThanOrEqualTo = ">="
    case between = "BETWEEN"
    case `in` = "IN"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case contains = "CONTAINS"
    case like = "LIKE"
    case matches = "MATCHES"

    /// Whether the operator compares strings as text (and so honours `[c]` and `[d]` by substring).
    var isStringOperator: Bool {
        switch self {
        case .beginsWith, .endsWith, .contains, .like, .matches: true
        default: false
        }
    }
}

/// The `[c]`, `[d]` and `[n]` modifiers of a string comparison.
public struct ComparisonOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `[c]`: Unicode case folding.
    public static let caseInsensitive = ComparisonOptions(rawValue: 1)
    /// `[d]`: diacritics removed (canonical decomposition, then combining marks dropped).
    public static let diacriticInsensitive = ComparisonOptions(rawValue: 2)
    /// `[n]`: accepted for compatibility; comparisons are already code-point literal.
    public static let normalized = ComparisonOptions(rawValue: 4)

    /// The options that change how strings fold.
    var folding: ComparisonOptions { intersection([.caseInsensitive, .diacriticInsensitive]) }
}

extension FormatPredicate: CustomStringConvertible {
    /// The canonical format: keywords upper-case, strings double-quoted,
    /// `==` for equality, modifiers in the order `[cdn]`, dates as
    /// `CAST(seconds, "NSDate")`. Parsing it gives back an equal predicate.
    public var description: String {
        switch self {
        case .constant(let value): return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .comparison(let comparison): return comparison.description
        case .not(let inner):
            switch inner {
            case .and, .or: return "NOT (\(inner))"
            default: return "NOT \(inner)"
            }
        case .and(let terms): return Self.join(terms, "AND")
        case .or(let terms): return Self.join(terms, "OR")
        }
    }

    private static func join(_ terms: [FormatPredicate], _ word: String) -> String {
        if terms.isEmpty { return word == "AND" ? "TRUEPREDICATE" : "FALSEPREDICATE" }
        if terms.count == 1 { return "(\(terms[0]))" }
        return terms.map { term in
            switch term {
            case .and, .or: "(\(term))"
            default: term.description
            }
        }.joined(separator: " \(word) ")
    }
}

extension FormatComparison: CustomStringConvertible {
    public var description: String {
        var text = ""
        switch modifier {
        case .direct: break
        case .any: text = "ANY "
        case .all: text = "ALL "
        }
        text += left.description + " " + `operator`.rawValue
        if !options.isEmpty {
            text += "["
            if options.contains(.caseInsensitive) { text += "c" }
            if options.contains(.diacriticInsensitive) { text += "d" }
            if options.contains(.normalized) { text += "n" }
            text += "]"
        }
        return text + " " + right.description
    }
}

extension FormatExpression: CustomStringConvertible {
    public var description: String {
        switch self {
        case .constant(let value): return Self.literal(value)
        case .evaluatedObject: return "SELF"
        case .variable(let name): return "$" + name
        case .aggregate(let members): return "{" + members.map(\.description).joined(separator: ", ") + "}"
        case .subquery(let collection, let variable, let predicate):
            return "SUBQUERY(\(collection), $\(variable), \(predicate))"
        case .keyPath(let base, let components):
            var parts: [String] = []
            if base != .evaluatedObject || components.isEmpty { parts.append(base.description) }
            for component in components {
                switch component {
                case .key(let key): parts.append(Keyword.named(key) == nil && Self.isPlainKey(key) ? key : "#" + key)
                case .collectionOperator(let op): parts.append("@" + op.rawValue)
                }
            }
            return parts.joined(separator: ".")
        }
    }

    private static func isPlainKey(_ key: String) -> Bool {
        guard let first = key.first, first == "_" || first.isLetter else { return false }
        return key.allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber }
    }

    static func literal(_ value: AttributeValue) -> String {
        switch value {
        case .null: return "nil"
        case .bool(let flag): return flag ? "TRUE" : "FALSE"
        case .integer(let integer): return String(integer)
        case .double(let double): return doubleLiteral(double)
        case .decimal(let decimal): return "CAST(\(quoted(decimal.description)), \"NSDecimalNumber\")"
        case .string(let string): return quoted(string)
        case .date(let date): return "CAST(\(doubleLiteral(date.timeIntervalSinceReferenceDate)), \"NSDate\")"
        case .data(let data): return "CAST(\(quoted(data.base64EncodedString())), \"NSData\")"
        case .uuid(let uuid): return "CAST(\(quoted(uuid.uuidString)), \"NSUUID\")"
        case .uri(let url): return "CAST(\(quoted(url.absoluteString)), \"NSURL\")"
        case .collection(let members): return "{" + members.map(literal).joined(separator: ", ") + "}"
        }
    }

    private static func doubleLiteral(_ double: Double) -> String {
        guard double.isFinite else {
            // No literal for these; a string CAST keeps the description parseable.
            return "CAST(\(quoted(double.description)), \"NSNumber\")"
        }
        let text = double.description
        if text.contains(".") || text.contains("e") { return text }
        return text + ".0"
    }

    static func quoted(_ string: String) -> String {
        var text = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            case "\r": text += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                text += "\\u" + String(format: "%04X", scalar.value)
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}

extension FormatPredicate {
    /// A copy with every free `$VARIABLE` replaced by its value, as
    /// `-[NSPredicate predicateWithSubstitutionVariables:]` does. Variables that a
    /// `SUBQUERY` binds are left alone.
    ///
    /// - Throws: ``PredicateFormatError`` with code `unknownVariable` for a free
    ///   variable missing from `variables`.
    public func substituting(_ variables: [String: AttributeValue]) throws(PredicateFormatError) -> FormatPredicate {
        try substituting(variables, bound: [])
    }

    /// The names of the free `$VARIABLE`s, those a substitution must supply.
    public var variableNames: Set<String> {
        var names: Set<String> = []
        collectVariables(into: &names, bound: [])
        return names
    }

    func substituting(_ variables: [String: AttributeValue], bound: Set<String>) throws(PredicateFormatError) -> FormatPredicate {
        switch self {
        case .constant: return self
        case .comparison(var comparison):
            comparison.left = try comparison.left.substituting(variables, bound: bound)
            comparison.right = try comparison.right.substituting(variables, bound: bound)
            return .comparison(comparison)
        case .not(let inner): return .not(try inner.substituting(variables, bound: bound))
        case .and(let terms):
            var result: [FormatPredicate] = []
            for term in terms { result.append(try term.substituting(variables, bound: bound)) }
            return .and(result)
        case .or(let terms):
            var result: [FormatPredicate] = []
            for term in terms { result.append(try term.substituting(variables, bound: bound)) }
            return .or(result)
        }
    }

    func collectVariables(into names: inout Set<String>, bound: Set<String>) {
        switch self {
        case .constant: break
        case .comparison(let comparison):
            comparison.left.collectVariables(into: &names, bound: bound)
            comparison.right.collectVariables(into: &names, bound: bound)
        case .not(let inner): inner.collectVariables(into: &names, bound: bound)
        case .and(let terms), .or(let terms):
            for term in terms { term.collectVariables(into: &names, bound: bound) }
        }
    }
}

extension FormatExpression {
    func substituting(_ variables: [String: AttributeValue], bound: Set<String>) throws(PredicateFormatError) -> FormatExpression {
        switch self {
        case .constant, .evaluatedObject: return self
        case .variable(let name):
            if bound.contains(name) { return self }
            guard let value = variables[name] else {
                throw PredicateFormatError(.unknownVariable, column: nil, text: "$" + name, detail: "no value to substitute")
            }
            return .constant(value)
        case .keyPath(let base, let components):
            let substituted = try base.substituting(variables, bound: bound)
            if case .constant(let value) = substituted, !Self.isCollection(value) {
                throw PredicateFormatError(.invalidOperand, column: nil, text: base.description,
                                           detail: "a substituted value has no keys")
            }
            return .keyPath(substituted, components)
        case .aggregate(let members):
            var result: [FormatExpression] = []
            for member in members { result.append(try member.substituting(variables, bound: bound)) }
            if result.allSatisfy({ if case .constant = $0 { true } else { false } }) {
                return .constant(.collection(result.compactMap { if case .constant(let value) = $0 { value } else { nil } }))
            }
            return .aggregate(result)
        case .subquery(let collection, let variable, let predicate):
            return .subquery(
                collection: try collection.substituting(variables, bound: bound), variable: variable,
                predicate: try predicate.substituting(variables, bound: bound.union([variable])))
        }
    }

    private static func isCollection(_ value: AttributeValue) -> Bool {
        if case .collection = value { return true }
        return false
    }

    func collectVariables(into names: inout Set<String>, bound: Set<String>) {
        switch self {
        case .constant, .evaluatedObject: break
        case .variable(let name): if !bound.contains(name) { names.insert(name) }
        case .keyPath(let base, _): base.collectVariables(into: &names, bound: bound)
        case .aggregate(let members): for member in members { member.collectVariables(into: &names, bound: bound) }
        case .subquery(let collection, let variable, let predicate):
            collection.collectVariables(into: &names, bound: bound)
            predicate.collectVariables(into: &names, bound: bound.union([variable]))
        }
    }
}
