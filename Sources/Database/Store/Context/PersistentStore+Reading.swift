import GRDB
import PredicateFormat

extension PersistentStore {
    /// The objects of an entity, its sub-entities' included unless
    /// `includingSubentities` is false, in primary-key order.
    public func objects(of entityName: String, includingSubentities: Bool = true) throws(StoreError) -> [ManagedObject] {
        let entity = try layout.requireEntity(entityName)
        let numbers = includingSubentities ? entity.entityNumbers : [entity.number]
        let sql = "SELECT * FROM \(entity.tableName) WHERE \(Self.entityFilter(numbers)) ORDER BY Z_PK"
        return try read { db in
            try layout.objects(try db.makeStatement(sql: sql))
        }
    }

    /// How many objects the entity has, its sub-entities' included unless
    /// `includingSubentities` is false.
    public func count(of entityName: String, includingSubentities: Bool = true) throws(StoreError) -> Int {
        let entity = try layout.requireEntity(entityName)
        let numbers = includingSubentities ? entity.entityNumbers : [entity.number]
        let sql = "SELECT count(*) FROM \(entity.tableName) WHERE \(Self.entityFilter(numbers))"
        return try read { db in try Int.fetchOne(db, sql: sql) ?? 0 }
    }

    /// The object with this ID, as the store holds it now.
    ///
    /// - Throws: ``StoreErrorCode/objectNotFound`` when there is none.
    public func object(with id: ObjectID) throws(StoreError) -> ManagedObject {
        let entity = try layout.requireEntity(id.entityName)
        let sql = "SELECT * FROM \(entity.tableName) WHERE Z_PK = ? AND \(Self.entityFilter(entity.entityNumbers))"
        let object = try read { db in
            try layout.objects(try db.cachedStatement(sql: sql), arguments: [id.primaryKey]).first
        }
        guard let object else {
            throw StoreError(.objectNotFound, "no object \(id) in the store", path: path, entity: id.entityName)
        }
        return object
    }

    /// The objects a relationship of `id` reaches, in the relationship's
    /// order for an ordered one and in primary-key order otherwise.
    public func destinations(of id: ObjectID, relationship name: String) throws(StoreError) -> [ObjectID] {
        let entity = try layout.requireEntity(id.entityName)
        guard let storage = entity.relationships[name],
              let relationship = layout.model.relationship(name, ofEntityNamed: id.entityName) else {
            throw StoreError(.invalidValue, "entity \(id.entityName) has no relationship \(name)", entity: id.entityName)
        }
        let destination = try layout.requireEntity(relationship.destinationEntityName)
        return try read { db in
            try layout.destinationIDs(db, of: id.primaryKey, in: entity, storage: storage, destination: destination)
        }
    }

    /// `Z_ENT = n` or `Z_ENT IN (…)`: the rows of these entities.
    static func entityFilter(_ numbers: [Int], alias: String? = nil) -> String {
        let column = alias.map { "\($0).Z_ENT" } ?? "Z_ENT"
        return numbers.count == 1 ? "\(column) = \(numbers[0])"
            : "\(column) IN (\(numbers.map(String.init).joined(separator: ", ")))"
    }
}

extension StoreLayout {
    func destinationIDs(_ db: Database, of key: Int64, in entity: EntityLayout, storage: RelationshipStorage,
                        destination: EntityLayout) throws -> [ObjectID] {
        let sql: String
        switch storage {
        case .foreignKey(let column, _, _):
            sql = "SELECT d.Z_PK, d.Z_ENT FROM \(entity.tableName) s JOIN \(destination.tableName) d ON d.Z_PK = s.\(column) "
                + "WHERE s.Z_PK = ?"
        case .inverseForeignKey(let table, let column, let order):
            sql = "SELECT Z_PK, Z_ENT FROM \(table) WHERE \(column) = ? ORDER BY \(order.map { "\($0), " } ?? "")Z_PK"
        case .joinTable(let table, let source, let target, let order):
            sql = "SELECT d.Z_PK, d.Z_ENT FROM \(table) j JOIN \(destination.tableName) d ON d.Z_PK = j.\(target) "
                + "WHERE j.\(source) = ? ORDER BY \(order.map { "j.\($0), " } ?? "")d.Z_PK"
        }
        return try Row.fetchAll(db, sql: sql, arguments: [key]).map { row in
            let number: Int = row[1] ?? destination.number
            return ObjectID(entityName: self.entity(number: number)?.name ?? destination.name, primaryKey: row[0] ?? 0)
        }
    }
}
