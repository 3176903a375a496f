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

/// A subject backed by a dictionary, handy for tests and dictionary results.
public struct DictionarySubject: PredicateSubject {
    public var values: [String: KeyValue]

    public init(_ values: [String: KeyValue]) { self.values = values }

    public func value(forKey key: String) -> KeyValue { values[key] ?? .noSuchKey }
}
