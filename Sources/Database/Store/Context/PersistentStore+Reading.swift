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
            try Row.fetchAll(db, sql: sql).compactMap { row in layout.object(from: row) }
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
    /// - Throws: ``StoreError/Code/objectNotFound`` when there is none.
    public func object(with id: ObjectID) throws(StoreError) -> ManagedObject {
        let entity = try layout.requireEntity(id.entityName)
        let sql = "SELECT * FROM \(entity.tableName) WHERE Z_PK = ? AND \(Self.entityFilter(entity.entityNumbers))"
        let object = try read { db in
            try Row.fetchOne(db, sql: sql, arguments: [id.primaryKey]).flatMap { layout.object(from: $0) }
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
    /// The object a row of an entity table holds, by the row's `Z_ENT`;
    /// nil for a row of an entity the model does not know.
    func object(from row: Row) -> ManagedObject? {
        let number: Int = row["Z_ENT"] ?? 0
        guard let entity = entity(number: number) else { return nil }
        var values: [String: AttributeValue] = [:]
        for (name, attribute) in entity.attributes {
            values[name] = ColumnValueCoding.attributeValue(row[attribute.column] ?? .null, type: attribute.type)
        }
        var toOne: [String: ObjectID] = [:]
        for (name, storage) in entity.relationships {
            guard case .foreignKey(let column, let entityColumn, _) = storage,
                  let key: Int64 = row[column] else { continue }
            toOne[name] = ObjectID(entityName: destinationName(of: name, in: entity, entityNumber: entityColumn.flatMap { row[$0] }),
                                   primaryKey: key)
        }
        return ManagedObject(objectID: ObjectID(entityName: entity.name, primaryKey: row["Z_PK"] ?? 0),
                             version: row["Z_OPT"] ?? 0, values: values, toOne: toOne)
    }

    /// The destination's entity: the one its `Z_ENT` names when the
    /// relationship records it, else the declared destination.
    func destinationName(of relationship: String, in entity: EntityLayout, entityNumber: Int?) -> String {
        if let entityNumber, let named = self.entity(number: entityNumber) { return named.name }
        return model.relationship(relationship, ofEntityNamed: entity.name)?.destinationEntityName ?? ""
    }

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
