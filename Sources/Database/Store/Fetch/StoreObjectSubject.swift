import PredicateFormat

/// A stored object as the in-memory predicate evaluator sees it: its
/// attributes, and its relationships followed through the store when a key
/// path reaches them.
///
/// The same predicate gives the same answer compiled to SQL and evaluated
/// here; the tests hold the two against each other.
public struct StoreObjectSubject: PredicateSubject {
    public let store: PersistentStore
    public let object: ManagedObject

    public init(store: PersistentStore, object: ManagedObject) {
        self.store = store
        self.object = object
    }

    /// The row's `Z_PK`: objects compare by key in memory as in SQL.
    public var objectKey: Int64? { object.objectID.primaryKey }

    public func value(forKey key: String) -> KeyValue {
        if let value = object.values[key] { return .attribute(value) }
        let entity = object.objectID.entityName
        guard let relationship = store.layout.model.relationship(key, ofEntityNamed: entity) else {
            // An attribute of the model that the row does not hold (a transient) is nil, not an unknown key.
            return store.layout.model.attribute(key, ofEntityNamed: entity) != nil ? .attribute(.null) : .noSuchKey
        }
        guard let ids = try? store.destinations(of: object.objectID, relationship: key),
              let objects = try? store.objects(with: ids) else { return .noSuchKey }
        let subjects = objects.map { StoreObjectSubject(store: store, object: $0) }
        return relationship.isToMany ? .toMany(subjects) : .toOne(subjects.first)
    }
}

extension FormatPredicate {
    /// Evaluates the predicate in memory against a stored object.
    public func evaluate(with object: ManagedObject, in store: PersistentStore,
                         variables: [String: AttributeValue] = [:]) throws(PredicateEvaluationError) -> Bool {
        try evaluate(with: StoreObjectSubject(store: store, object: object), variables: variables)
    }
}
