/// An object a predicate can be evaluated against in memory: a managed
/// object's snapshot, a test record, a dictionary.
public protocol PredicateSubject {
    /// The value for an attribute or relationship name, or ``KeyValue/noSuchKey``.
    func value(forKey key: String) -> KeyValue

    /// The object's primary key (`Z_PK`) when it stands for a stored row, so that
    /// `dept == %@` (with the key as an integer argument), `SELF IN %@` and friends
    /// agree with the SQL, which compares foreign keys. `nil` (the default): the
    /// object equals nothing but itself being non-nil.
    var objectKey: Int64? { get }
}

extension PredicateSubject {
    public var objectKey: Int64? { nil }
}

/// What a key names on a ``PredicateSubject``.
public enum KeyValue {
    case attribute(AttributeValue)
    /// A to-one relationship, `nil` when unset.
    case toOne((any PredicateSubject)?)
    /// A to-many relationship's members.
    case toMany([any PredicateSubject])
    /// The subject has no such key: evaluation throws ``PredicateEvaluationError``.
    case noSuchKey
}

/// Why a predicate could not be evaluated in memory.
public struct PredicateEvaluationError: CodedPredicateError {
    public enum Code: String, Sendable, Hashable {
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

    public var code: Code
    public var text: String
    public var detail: String

    public init(_ code: Code, text: String, detail: String = "") {
        self.code = code
        self.text = text
        self.detail = detail
    }
}

/// A subject backed by a dictionary, handy for tests and dictionary results.
public struct DictionarySubject: PredicateSubject {
    public var values: [String: KeyValue]

    public init(_ values: [String: KeyValue]) { self.values = values }

    public func value(forKey key: String) -> KeyValue { values[key] ?? .noSuchKey }
}
