/// How entities map onto SQLite tables: what the predicate compiler needs of
/// Core Data's layout. The store builds it from its model; tests build small ones.
///
/// Every table's key is `Z_PK`.
public struct SQLSchema: Sendable, Hashable {
    public var entities: [String: SQLEntityMapping]

    public init(entities: [String: SQLEntityMapping]) { self.entities = entities }

    public init(_ entities: [SQLEntityMapping]) {
        self.entities = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// One entity's table, columns and relationships.
public struct SQLEntityMapping: Sendable, Hashable {
    public var name: String
    /// `ZBOOK`.
    public var table: String
    /// The `Z_ENT` values of this entity and its sub-entities when the table is
    /// shared with other entities (inheritance); `nil` when every row is this entity's.
    public var entityIDs: [Int]?
    public var attributes: [String: SQLAttributeMapping]
    public var relationships: [String: SQLRelationshipMapping]

    public init(
        name: String, table: String, entityIDs: [Int]? = nil,
        attributes: [String: SQLAttributeMapping] = [:], relationships: [String: SQLRelationshipMapping] = [:]
    ) {
        self.name = name
        self.table = table
        self.entityIDs = entityIDs
        self.attributes = attributes
        self.relationships = relationships
    }
}

/// An attribute's column and how its values are stored.
public struct SQLAttributeMapping: Sendable, Hashable {
    /// `ZNAME`.
    public var column: String
    public var kind: AttributeValueKind

    public init(column: String, kind: AttributeValueKind) {
        self.column = column
        self.kind = kind
    }
}

/// A relationship: its destination entity and how rows join.
public struct SQLRelationshipMapping: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// This row's column holds the destination's `Z_PK` (`ZOWNER`).
        case toOne(foreignKeyColumn: String)
        /// The destination rows' column holds this row's `Z_PK` (the inverse to-one's column).
        case toManyInverse(destinationForeignKeyColumn: String)
        /// A join table (`Z_1TAGS`) with this row's `Z_PK` in `sourceColumn`
        /// and the destination's in `destinationColumn`.
        case manyToMany(joinTable: String, sourceColumn: String, destinationColumn: String)
    }

    /// The destination entity's name (a key of ``SQLSchema/entities``).
    public var destination: String
    public var kind: Kind

    public init(destination: String, kind: Kind) {
        self.destination = destination
        self.kind = kind
    }

    public var isToMany: Bool {
        if case .toOne = kind { return false }
        return true
    }
}
