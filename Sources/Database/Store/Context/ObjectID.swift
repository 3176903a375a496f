/// An object's identity in a store: its entity and its primary key (`Z_PK`).
///
/// An object inserted in a context and not yet saved has a temporary ID
/// (a negative key); saving gives it its permanent one.
public struct ObjectID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The object's entity: the most specific one, as its row's `Z_ENT` says.
    public var entityName: String
    /// The row's `Z_PK`, or a negative number for an unsaved object.
    public var primaryKey: Int64

    public init(entityName: String, primaryKey: Int64) {
        self.entityName = entityName
        self.primaryKey = primaryKey
    }

    /// Whether the object has not been saved yet.
    public var isTemporary: Bool { primaryKey < 0 }

    /// Core Data's URI form, `x-coredata://<store UUID>/<Entity>/p<key>`.
    public func uriRepresentation(storeIdentifier: String) -> String {
        isTemporary
            ? "x-coredata:///\(entityName)/t\(-primaryKey)"
            : "x-coredata://\(storeIdentifier)/\(entityName)/p\(primaryKey)"
    }

    public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool {
        (lhs.entityName, lhs.primaryKey) < (rhs.entityName, rhs.primaryKey)
    }

    public var description: String { "\(entityName)/p\(primaryKey)" }
}
