import GRDB
import OrderedCollections
import PredicateFormat

extension ObjectContext {
    /// Saves every change in one transaction and returns what changed.
    ///
    /// New objects get their primary keys from `Z_PRIMARYKEY.Z_MAX` of their
    /// root entity; each changed object's `Z_OPT` goes up by one. An object
    /// another connection changed or deleted since this context read it is
    /// a conflict: nothing is written, and the error lists the objects.
    @discardableResult
    public func save() throws(StoreError) -> StoreChangeSet {
        guard hasChanges else { return StoreChangeSet() }
        guard !store.isReadOnly else {
            throw StoreError(.readOnly, "the store was opened read-only", path: store.path)
        }
        let pending = self.pending
        let versions = self.versions
        let layout = self.layout
        var outcome = SaveOutcome()
        do {
            outcome = try store.database.write { db in
                var transaction = SaveTransaction(layout: layout, pending: pending, versions: versions, db: db)
                return try transaction.run()
            }
        } catch let error as StoreError {
            throw error.at(path: store.path)
        } catch let error as DatabaseError {
            throw StoreError(.io, error.message ?? "the database failed", path: store.path, sql: error.sql).caused(by: error)
        } catch {
            throw StoreError(.io, "the save failed", path: store.path).caused(by: error)
        }
        self.pending = PendingChanges()
        for id in outcome.changeSet.deleted { self.versions[id] = nil }
        for (id, version) in outcome.newVersions { self.versions[id] = version }
        return outcome.changeSet
    }
}

struct SaveOutcome {
    var changeSet = StoreChangeSet()
    var newVersions: [ObjectID: Int64] = [:]
}

/// One save, inside a write transaction.
private struct SaveTransaction {
    let layout: StoreLayout
    let pending: PendingChanges
    let versions: [ObjectID: Int64]
    let db: Database
    var permanent: [ObjectID: ObjectID] = [:]
    var conflicts: [ObjectID] = []
    var insertPlans: [String: InsertPlan] = [:]

    init(layout: StoreLayout, pending: PendingChanges, versions: [ObjectID: Int64], db: Database) {
        self.layout = layout
        self.pending = pending
        self.versions = versions
        self.db = db
    }

    func resolve(_ id: ObjectID) -> ObjectID { permanent[id] ?? id }

    mutating func run() throws -> SaveOutcome {
        var outcome = SaveOutcome()
        try allocateKeys()
        for id in pending.deleted where !id.isTemporary {
            let entity = try layout.requireEntity(id.entityName)
            let checked = versions[id]
            let sql = "DELETE FROM \(entity.tableName) WHERE Z_PK = ?" + (checked == nil ? "" : " AND Z_OPT = ?")
            try db.cachedStatement(sql: sql).execute(arguments: StatementArguments([id.primaryKey] + (checked.map { [$0] } ?? [])))
            if db.changesCount == 0 { conflicts.append(id) }
            outcome.changeSet.deleted.append(id)
        }
        for (temporary, values) in pending.inserted {
            let id = resolve(temporary)
            try insertRow(id, temporary: temporary, values: values)
            outcome.changeSet.inserted.append(id)
            outcome.newVersions[id] = 1
        }
        var touched = OrderedSet<ObjectID>()
        for id in pending.values.keys { touched.append(id) }
        for id in pending.toOne.keys where !id.isTemporary { touched.append(id) }
        for id in pending.orderPositions.keys where !id.isTemporary { touched.append(id) }
        for id in pending.changedKeys.keys { touched.append(id) }
        for id in touched where !pending.deleted.contains(id) {
            if try updateRow(id) {
                outcome.newVersions[id] = versions[id].map { $0 + 1 }
                outcome.changeSet.updated[id] = pending.changedKeys[id] ?? []
            }
        }
        try writeJoinRows()
        guard conflicts.isEmpty else {
            throw StoreError(.conflict, "another connection changed or deleted \(conflicts.count) object(s) since they were read",
                             entity: conflicts.first?.entityName, objects: conflicts)
        }
        outcome.changeSet.permanentIDs = permanent
        return outcome
    }

    /// Primary keys from each root entity's `Z_MAX`, as Core Data allocates them.
    mutating func allocateKeys() throws {
        var byRoot: OrderedDictionary<Int, [ObjectID]> = [:]
        var rootNumbers: [String: Int] = [:]
        for id in pending.inserted.keys {
            if rootNumbers[id.entityName] == nil {
                rootNumbers[id.entityName] = try layout.requireEntity(try layout.requireEntity(id.entityName).rootName).number
            }
            byRoot[rootNumbers[id.entityName] ?? 0, default: []].append(id)
        }
        for (root, ids) in byRoot {
            var maximum = try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [root]) ?? 0
            let table = layout.entity(number: root)?.tableName ?? ""
            // A store written by other tools may hold keys above Z_MAX.
            maximum = max(maximum, try Int64.fetchOne(db, sql: "SELECT max(Z_PK) FROM \(table)") ?? 0)
            for id in ids {
                maximum += 1
                permanent[id] = ObjectID(entityName: id.entityName, primaryKey: maximum)
            }
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", arguments: [maximum, root])
        }
    }

    /// The foreign-key columns (key, entity, order) a to-one relationship writes.
    func foreignKeyColumns(_ name: String, of id: ObjectID, in entity: EntityLayout,
                           destination: ObjectID?) -> [(String, DatabaseValue)] {
        guard case .foreignKey(let column, let entityColumn, let orderColumn) = entity.relationships[name] else { return [] }
        let target = destination.map(resolve)
        var columns: [(String, DatabaseValue)] = [(column, target?.primaryKey.databaseValue ?? .null)]
        if let entityColumn {
            columns.append((entityColumn, target.flatMap { layout.entity(named: $0.entityName)?.number }?.databaseValue ?? .null))
        }
        if let orderColumn, let position = pending.orderPositions[id]?[name] {
            columns.append((orderColumn, target == nil ? .null : position.databaseValue))
        }
        return columns
    }

    /// What inserting an object of one entity needs, worked out once per save.
    struct InsertPlan {
        struct Attribute {
            var name: String
            var column: String
            var type: AttributeType
            var defaultValue: AttributeValue
            var isOptional: Bool
        }
        var entity: EntityLayout
        var attributes: [Attribute]
    }

    mutating func insertPlan(_ entityName: String) throws -> InsertPlan {
        if let plan = insertPlans[entityName] { return plan }
        let entity = try layout.requireEntity(entityName)
        let descriptions = Dictionary(layout.model.allAttributes(ofEntityNamed: entityName).map { ($0.name, $0) }) { $1 }
        let plan = InsertPlan(entity: entity, attributes: entity.attributes.map { name, attribute in
            InsertPlan.Attribute(name: name, column: attribute.column, type: attribute.type,
                                 defaultValue: ObjectContextDefaults.value(of: name, entity: entity, model: layout.model),
                                 isOptional: descriptions[name]?.isOptional ?? true)
        })
        insertPlans[entityName] = plan
        return plan
    }

    mutating func insertRow(_ id: ObjectID, temporary: ObjectID, values: [String: AttributeValue]) throws {
        let plan = try insertPlan(id.entityName)
        let entity = plan.entity
        var columns: [(String, DatabaseValue)] = [("Z_PK", id.primaryKey.databaseValue),
                                                  ("Z_ENT", entity.number.databaseValue), ("Z_OPT", 1.databaseValue)]
        columns.reserveCapacity(plan.attributes.count + 3)
        for attribute in plan.attributes {
            let value = values[attribute.name] ?? attribute.defaultValue
            if value == .null, !attribute.isOptional {
                throw StoreError(.invalidValue, "non-optional attribute \(attribute.name) has no value", entity: entity.name,
                                 objects: [temporary])
            }
            columns.append((attribute.column, try ColumnValueCoding.databaseValue(value, type: attribute.type,
                                                                                   key: attribute.name, entity: entity.name)))
        }
        for (name, destination) in pending.toOne[temporary] ?? [:] {
            columns += foreignKeyColumns(name, of: temporary, in: entity, destination: destination)
        }
        let names = columns.map(\.0).joined(separator: ", ")
        let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        // Cached: a save of many objects of one entity compiles the statement once.
        try db.cachedStatement(sql: "INSERT INTO \(entity.tableName) (\(names)) VALUES (\(marks))")
            .execute(arguments: StatementArguments(columns.map(\.1)))
    }

    /// Writes an object's changes; false when there was nothing to write.
    mutating func updateRow(_ id: ObjectID) throws -> Bool {
        let entity = try layout.requireEntity(id.entityName)
        var columns: [(String, DatabaseValue)] = []
        for (name, value) in pending.values[id] ?? [:] {
            guard let attribute = entity.attributes[name] else { continue }
            columns.append((attribute.column,
                            try ColumnValueCoding.databaseValue(value, type: attribute.type, key: name, entity: entity.name)))
        }
        var relationshipNames = Set((pending.toOne[id] ?? [:]).keys)
        relationshipNames.formUnion((pending.orderPositions[id] ?? [:]).keys)
        for name in relationshipNames {
            let destination: ObjectID?
            if case .some(let set) = pending.toOne[id]?[name] {
                destination = set
            } else {
                guard case .foreignKey(let column, _, _) = entity.relationships[name],
                      let key = try Int64.fetchOne(db, sql: "SELECT \(column) FROM \(entity.tableName) WHERE Z_PK = ?",
                                                   arguments: [id.primaryKey]) else { continue }
                destination = ObjectID(entityName: layout.model.relationship(name, ofEntityNamed: id.entityName)?
                    .destinationEntityName ?? "", primaryKey: key)
            }
            columns += foreignKeyColumns(name, of: id, in: entity, destination: destination)
        }
        let changedKeys = pending.changedKeys[id] ?? []
        guard !columns.isEmpty || !changedKeys.isEmpty else { return false }
        let checked = versions[id]
        let assignments = (columns.map { "\($0.0) = ?" } + ["Z_OPT = Z_OPT + 1"]).joined(separator: ", ")
        let sql = "UPDATE \(entity.tableName) SET \(assignments) WHERE Z_PK = ?" + (checked == nil ? "" : " AND Z_OPT = ?")
        var arguments = columns.map(\.1)
        arguments.append(id.primaryKey.databaseValue)
        if let checked { arguments.append(checked.databaseValue) }
        try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(arguments))
        if db.changesCount == 0 { conflicts.append(id) }
        return true
    }

    func writeJoinRows() throws {
        for (row, present) in pending.joinRows {
            let first = resolve(row.firstKey), second = resolve(row.secondKey)
            if pending.deleted.contains(row.firstKey) && present || pending.deleted.contains(row.secondKey) && present {
                continue
            }
            if present {
                try db.cachedStatement(sql: "INSERT OR IGNORE INTO \(row.table) (\(row.firstColumn), \(row.secondColumn)) VALUES (?, ?)")
                    .execute(arguments: [first.primaryKey, second.primaryKey])
            } else if !first.isTemporary && !second.isTemporary {
                try db.cachedStatement(sql: "DELETE FROM \(row.table) WHERE \(row.firstColumn) = ? AND \(row.secondColumn) = ?")
                    .execute(arguments: [first.primaryKey, second.primaryKey])
            }
        }
        // Positions after the rows exist; a row removed since is not there to update.
        for (place, position) in pending.joinPositions {
            let row = place.row
            guard !pending.deleted.contains(row.firstKey), !pending.deleted.contains(row.secondKey) else { continue }
            try db.cachedStatement(sql: "UPDATE \(row.table) SET \(place.orderColumn) = ? WHERE \(row.firstColumn) = ? AND \(row.secondColumn) = ?")
                .execute(arguments: [position, resolve(row.firstKey).primaryKey, resolve(row.secondKey).primaryKey])
        }
    }
}

/// The model's default values, shared by the context's reads and the save.
enum ObjectContextDefaults {
    static func value(of key: String, entity: EntityLayout, model: ObjectModel) -> AttributeValue {
        guard let text = model.attribute(key, ofEntityNamed: entity.name)?.defaultValue,
              let type = entity.attributes[key]?.type else { return .null }
        return AttributeValueText.parse(text, as: type)
    }
}
