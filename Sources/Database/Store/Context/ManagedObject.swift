import PredicateFormat

/// An object as a store holds it: a value, read from one row.
///
/// Attribute values are ``PredicateFormat/AttributeValue``s, so predicates
/// evaluate against them directly. To-one relationships come with the row
/// (they are columns of it); to-many ones are read on demand through
/// ``PersistentStore/destinations(of:relationship:)`` or a context.
public struct ManagedObject: Sendable, Hashable {
    public var objectID: ObjectID
    /// The row's `Z_OPT`: how many times the object was saved. A save
    /// succeeds only if it is still the version the object was read at.
    public var version: Int64
    /// Every stored attribute's value, `.null` when unset.
    public var values: [String: AttributeValue]
    /// Each to-one relationship's destination, absent when it has none.
    public var toOne: [String: ObjectID]

    public init(objectID: ObjectID, version: Int64 = 0, values: [String: AttributeValue] = [:],
                toOne: [String: ObjectID] = [:]) {
        self.objectID = objectID
        self.version = version
        self.values = values
        self.toOne = toOne
    }

    /// The attribute's value, `.null` when unset or unknown.
    public subscript(key: String) -> AttributeValue {
        values[key] ?? .null
    }
}
