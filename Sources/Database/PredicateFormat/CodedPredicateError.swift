/// The one shape of this module's errors: a code, where in the format the
/// problem starts when that is known, the offending text, and a detail.
///
/// ``PredicateFormatError`` (parsing), ``PredicateEvaluationError``
/// (evaluating in memory) and ``PredicateSQLError`` (compiling to SQL) bind
/// it to their own code enums, so each stays a distinct type to `catch`
/// while the properties, the initializer and the description are written
/// once:
///
/// ```
/// name CONTAINS[x] "a"  →  invalidModifier at column 15: "x"
/// nosuch == 1           →  unknownKey: "nosuch" (not a key of Person in nosuch)
/// ```
public struct CodedPredicateError<Kind: RawRepresentable & Hashable & Sendable>: Error, Hashable, CustomStringConvertible
where Kind.RawValue == String {
    /// The kinds of failure of the error's stage, reachable as
    /// `PredicateSQLError.Code` (a generic parameter is not a member type).
    public typealias Code = Kind

    /// What went wrong.
    public var code: Code
    /// The 1-based column (in characters) where the problem starts; `nil`
    /// when it is not known: the error comes from substitution, evaluation
    /// or compiling to SQL, which work on the parsed predicate.
    public var column: Int?
    /// The offending text (a token, a character, a key, a variable name).
    public var text: String
    /// What was expected or why it failed.
    public var detail: String

    /// Creates an error.
    public init(_ code: Code, column: Int? = nil, text: String, detail: String = "") {
        self.code = code
        self.column = column
        self.text = text
        self.detail = detail
    }

    /// `<code>[ at column <n>]: "<text>"[ (<detail>)]`.
    public var description: String {
        var message = code.rawValue
        if let column { message += " at column \(column)" }
        message += ": \"\(text)\""
        if !detail.isEmpty { message += " (\(detail))" }
        return message
    }
}
