/// Why a predicate or sort could not be compiled to SQL: a
/// ``PredicateSQLErrorCode``, the offending text and a detail.
public typealias PredicateSQLError = CodedPredicateError<PredicateSQLErrorCode>

/// What went wrong in a ``PredicateSQLError``.
public enum PredicateSQLErrorCode: String, Sendable, Hashable {
    /// The entity is not in the schema.
    case unknownEntity
    /// A key that is neither an attribute nor a relationship of its entity.
    case unknownKey
    /// A `$VARIABLE` not substituted before compiling.
    case unboundVariable
    /// A `MATCHES` pattern that is not a valid regular expression.
    case invalidRegularExpression
    /// A construct the SQL form does not support (a to-many on both sides, a sort through a to-many).
    case unsupported
}
