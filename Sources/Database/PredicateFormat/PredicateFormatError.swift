/// A malformed predicate format, or a bad argument or variable: a
/// ``PredicateFormatErrorCode``, the 1-based column (`nil` when the error
/// comes from substitution), the offending text and what was expected.
///
/// ```
/// name CONTAINS[x] "a"  →  invalidModifier at column 15: "x"
/// ```
public typealias PredicateFormatError = CodedPredicateError<PredicateFormatErrorCode>

/// What went wrong in a ``PredicateFormatError``.
public enum PredicateFormatErrorCode: String, Sendable, Hashable {
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
