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
