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
            throw StoreError(.io, error.message ?? "\(error)", path: store.path, sql: error.sql)
        } catch {
            throw StoreError(.io, "\(error)", path: store.path)
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
            try db.execute(sql: sql, arguments: StatementArguments([id.primaryKey] + (checked.map { [$0] } ?? [])))
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
        for id in pending.inserted.keys {
            let entity = try layout.requireEntity(id.entityName)
            let root = try layout.requireEntity(entity.rootName)
            byRoot[root.number, default: []].append(id)
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

    func insertRow(_ id: ObjectID, temporary: ObjectID, values: [String: AttributeValue]) throws {
        let entity = try layout.requireEntity(id.entityName)
        var columns: [(String, DatabaseValue)] = [("Z_PK", id.primaryKey.databaseValue),
                                                  ("Z_ENT", entity.number.databaseValue), ("Z_OPT", 1.databaseValue)]
        for (name, attribute) in entity.attributes {
            let value = values[name] ?? ObjectContextDefaults.value(of: name, entity: entity, model: layout.model)
            if value == .null, layout.model.attribute(name, ofEntityNamed: entity.name)?.isOptional == false {
                throw StoreError(.invalidValue, "non-optional attribute \(name) has no value", entity: entity.name,
                                 objects: [temporary])
            }
            columns.append((attribute.column,
                            try ColumnValueCoding.databaseValue(value, type: attribute.type, key: name, entity: entity.name)))
        }
        for (name, destination) in pending.toOne[temporary] ?? [:] {
            columns += foreignKeyColumns(name, of: temporary, in: entity, destination: destination)
        }
        let names = columns.map(\.0).joined(separator: ", ")
        let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        try db.execute(sql: "INSERT INTO \(entity.tableName) (\(names)) VALUES (\(marks))",
                       arguments: StatementArguments(columns.map(\.1)))
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
        try db.execute(sql: sql, arguments: StatementArguments(arguments))
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
                try db.execute(sql: "INSERT OR IGNORE INTO \(row.table) (\(row.firstColumn), \(row.secondColumn)) VALUES (?, ?)",
                               arguments: [first.primaryKey, second.primaryKey])
            } else if !first.isTemporary && !second.isTemporary {
                try db.execute(sql: "DELETE FROM \(row.table) WHERE \(row.firstColumn) = ? AND \(row.secondColumn) = ?",
                               arguments: [first.primaryKey, second.primaryKey])
            }
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
