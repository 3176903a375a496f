/// Why a predicate could not be evaluated in memory: a
/// ``PredicateEvaluationErrorCode``, the offending text and a detail.
public typealias PredicateEvaluationError = CodedPredicateError<PredicateEvaluationErrorCode>

/// What went wrong in a ``PredicateEvaluationError``.
public enum PredicateEvaluationErrorCode: String, Sendable, Hashable {
    /// A key the subject does not have.
    case noSuchKey
    /// A `$VARIABLE` not substituted and not bound by a `SUBQUERY`.
    case unboundVariable
    /// A key applied to a value that is not an object (`name.length`).
    case notAnObject
    /// A collection operator or `SUBQUERY` over something that is not a collection.
    case notACollection
    /// A `MATCHES` pattern NSRegularExpression rejects.
    case invalidRegularExpression
    /// A construct with no meaning here (comparing two objects, a to-many on the right of `==`).
    case unsupported
}
