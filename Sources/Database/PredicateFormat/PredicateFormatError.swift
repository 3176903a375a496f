/// A malformed predicate format, or a bad argument or variable.
///
/// ```
/// name CONTAINS[x] "a"  →  invalidModifier at column 15: "x"
/// ```
public struct PredicateFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// A character that starts no token (`~`, a lone `&`, …).
        case unexpectedCharacter
        /// A token where the grammar does not allow it.
        case unexpectedToken
        /// The format ended where more was needed.
        case unexpectedEnd
        /// A string literal without its closing quote.
        case unterminatedString
        /// A backslash escape a string does not know.
        case invalidEscape
        /// A malformed number (`0x`, `1e`, out of range).
        case invalidNumber
        /// A modifier other than `c`, `d`, `n`, `l` in `[…]`.
        case invalidModifier
        /// A `%` specifier with no argument left.
        case missingArgument
        /// An argument of the wrong type for its specifier (`%K` needs a string key path, `%d` an integer).
        case badArgument
        /// An unknown `%` specifier.
        case unknownSpecifier
        /// A `$VARIABLE` with no value in the substitution.
        case unknownVariable
        /// An operand that cannot take part (`BETWEEN` without two bounds, `CAST` to an unknown class).
        case invalidOperand
        /// Nesting deeper than the parser allows (a guard against stack exhaustion).
        case tooDeep
    }

    public var code: Code
    /// The 1-based column (in characters) where the problem starts; `nil` when the error comes from substitution.
    public var column: Int?
    /// The offending text (a token, a character, a variable name).
    public var text: String
    /// What was expected or why it failed.
    public var detail: String

    public init(_ code: Code, column: Int?, text: String, detail: String = "") {
        self.code = code
        self.column = column
        self.text = text
        self.detail = detail
    }

    public var description: String {
        var message = "\(code.rawValue)"
        if let column { message += " at column \(column)" }
        message += ": \"\(text)\""
        if !detail.isEmpty { message += " (\(detail))" }
        return message
    }
}
