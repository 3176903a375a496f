import OrderedCollections

/// Where one entity's objects and properties live in the store.
public struct EntityLayout: Sendable, Hashable {
    public var name: String
    /// The entity's number: `Z_ENT` in its rows and in `Z_PRIMARYKEY`.
    public var number: Int
    /// The super-entity's number, 0 for a root (`Z_PRIMARYKEY.Z_SUPER`).
    public var superNumber: Int
    /// The root entity, whose table holds this entity's rows.
    public var rootName: String
    /// `Z` and the root's name uppercased.
    public var tableName: String
    /// This entity's number and its sub-entities', at any depth: the
    /// `Z_ENT` values of the rows that are objects of this entity.
    public var entityNumbers: [Int]
    /// Each stored attribute (inherited ones included) and its column.
    public var attributes: OrderedDictionary<String, AttributeColumn>
    /// Each stored relationship (inherited ones included) and where it is kept.
    public var relationships: OrderedDictionary<String, RelationshipStorage>

    public var isRoot: Bool { superNumber == 0 }
    /// Whether some rows of the table are objects of a sub-entity.
    public var hasSubentities: Bool { entityNumbers.count > 1 }
}

/// A stored attribute's column.
public struct AttributeColumn: Sendable, Hashable {
    public var column: String
    public var type: AttributeType
}

/// Where a relationship is kept.
public enum RelationshipStorage: Sendable, Hashable {
    /// A to-one relationship: a column of the source's table holding the
    /// destination's `Z_PK`; `entityColumn` (`Z<n>_NAME`) holds its `Z_ENT`
    /// when the destination has sub-entities; `orderColumn` (`Z_FOK_NAME`)
    /// its position when the inverse is an ordered to-many.
    case foreignKey(column: String, entityColumn: String?, orderColumn: String?)
    /// A to-many relationship whose inverse is to-one: the destination's
    /// table holds the source's `Z_PK` in `column`.
    case inverseForeignKey(table: String, column: String, orderColumn: String?)
    /// A many-to-many relationship: a join table with the source's `Z_PK`
    /// in `sourceColumn` and the destination's in `destinationColumn`.
    case joinTable(table: String, sourceColumn: String, destinationColumn: String, orderColumn: String?)
}
