import GRDB

/// Runs one ``MigrationPlan`` on a store's database, inside the caller's
/// transaction: checks the data, sets the old tables aside, creates the
/// destination's tables and indexes, copies every kept row and link, and
/// rewrites `Z_PRIMARYKEY`.
///
/// The old tables are renamed (`migrating_ZPOST`) rather than the new ones
/// built under temporary names: SQLite rewrites a renamed table's
/// `CREATE TABLE` text, and the new tables must read in `sqlite_master`
/// exactly as Core Data writes them.
struct MigrationStepExecutor {
    let plan: MigrationPlan
    let sourceLayout: StoreLayout
    let destinationLayout: StoreLayout
    /// Source entity number → destination entity number, for every kept entity.
    let numberMap: [Int: Int]

    static let setAsidePrefix = "migrating_"

    /// - Parameter primaryKeys: the store's `Z_PRIMARYKEY` rows, whose
    ///   entity numbers the source layout adopts.
    init(plan: MigrationPlan, source: ObjectModel, destination: ObjectModel,
         primaryKeys: [PrimaryKeyRow]) throws(StoreMigrationError) {
        self.plan = plan
        var sourceLayout: StoreLayout
        do {
            sourceLayout = try StoreLayout(model: source)
            destinationLayout = try StoreLayout(model: destination)
        } catch {
            throw StoreMigrationError(.notAStore, "a model cannot be laid out: \(error.message)", entity: error.entity, storeError: error)
        }
        sourceLayout.adoptEntityNumbers(primaryKeys)
        self.sourceLayout = sourceLayout
        var numberMap: [Int: Int] = [:]
        for entity in destinationLayout.entities {
            if let old = plan.mapping(forEntity: entity.name)?.sourceEntity.flatMap({ sourceLayout.entity(named: $0) }) {
                numberMap[old.number] = entity.number
            }
        }
        self.numberMap = numberMap
    }

    func setAsideName(_ table: String) -> String { Self.setAsidePrefix + table }

    /// What one step did.
    struct Outcome {
        /// Rows copied, by destination table.
        var rowsCopied: [String: Int]
        /// Triggers of the old tables (Core Data's derived-attribute
        /// triggers) that were not created again: a table they touch changed.
        var droppedTriggers: [String]
    }

    func run(_ db: Database) throws -> Outcome {
        try checkSchema(db)
        try MigrationChecks(executor: self).evaluate(db)
        let triggers = try setAsideSourceTables(db)
        for statement in destinationLayout.tables.map(\.createStatement) + destinationLayout.indexes.map(\.createStatement) {
            try db.execute(sql: statement)
        }
        var copied: [String: Int] = [:]
        for table in destinationLayout.tables {
            copied[table.name] = table.compositePrimaryKey.isEmpty ? try copyEntityTable(table, db) : try copyJoinTable(table, db)
        }
        try rewritePrimaryKeys(db)
        for table in sourceLayout.tables {
            try db.execute(sql: "DROP TABLE \(setAsideName(table.name))")
        }
        // After the copy, so that they do not fire on the copied rows.
        var dropped: [String] = []
        for trigger in triggers {
            if keepsMeaning(trigger) {
                try db.execute(sql: trigger.sql)
            } else {
                dropped.append(trigger.name)
            }
        }
        return Outcome(rowsCopied: copied, droppedTriggers: dropped)
    }

    struct Trigger {
        var name: String
        var table: String
        var sql: String
    }

    /// A trigger means the same after the step when every table it names
    /// is laid out exactly as before and its entities keep their numbers.
    private func keepsMeaning(_ trigger: Trigger) -> Bool {
        let words = Self.words(trigger.sql)
        let named = Set(sourceLayout.tables.map(\.name).filter { words.contains($0.uppercased()) } + [trigger.table])
        return named.allSatisfy { name in
            guard let before = sourceLayout.table(named: name), let after = destinationLayout.table(named: name),
                  before.createStatement == after.createStatement else { return false }
            return sourceLayout.entities.filter { $0.tableName == name }.allSatisfy { numberMap[$0.number] == $0.number }
                && destinationLayout.entities.filter { $0.tableName == name }.allSatisfy { numberMap.values.contains($0.number) }
        }
    }

    /// Every table and column the source layout expects is in the store.
    private func checkSchema(_ db: Database) throws {
        for table in sourceLayout.tables {
            guard try db.tableExists(table.name) else {
                throw StoreMigrationError(.schemaMismatch, "the store has no table \(table.name), which its model lays out")
            }
            let present = Set(try db.columns(in: table.name).map { $0.name.uppercased() })
            if let missing = table.columns.first(where: { !present.contains($0.name.uppercased()) }) {
                throw StoreMigrationError(.schemaMismatch, "table \(table.name) has no column \(missing.name), which its model lays out")
            }
        }
    }

    /// Renames the source tables, after dropping their indexes (whose
    /// names the destination reuses) and every trigger that is on them or
    /// names them (SQLite would rewrite those to name the set-aside
    /// tables); returns the triggers.
    private func setAsideSourceTables(_ db: Database) throws -> [Trigger] {
        let tables = Set(sourceLayout.tables.map { $0.name.uppercased() })
        var triggers: [Trigger] = []
        let dependents = try Row.fetchAll(db, sql: """
            SELECT type, name, tbl_name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL
            """)
        for row in dependents {
            let type: String = row[0]
            let name: String = row[1]
            let table: String = row[2]
            let sql: String = row[3]
            if type == "index", tables.contains(table.uppercased()) {
                try db.execute(sql: "DROP INDEX \(name.quotedDatabaseIdentifier)")
            } else if type == "trigger", tables.contains(table.uppercased()) || !Self.words(sql).isDisjoint(with: tables) {
                triggers.append(Trigger(name: name, table: table, sql: sql))
                try db.execute(sql: "DROP TRIGGER \(name.quotedDatabaseIdentifier)")
            }
        }
        for table in sourceLayout.tables {
            try db.execute(sql: "ALTER TABLE \(table.name) RENAME TO \(setAsideName(table.name))")
        }
        return triggers
    }

    /// The identifiers of an SQL text, uppercased.
    static func words(_ sql: String) -> Set<String> {
        Set(sql.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map { $0.uppercased() })
    }

    // MARK: Entities

    /// The source entity whose rows become objects of the destination entity `name`.
    func sourceEntity(of name: String) -> EntityLayout? {
        plan.mapping(forEntity: name)?.sourceEntity.flatMap { sourceLayout.entity(named: $0) }
    }

    /// The source entity numbers whose rows become objects of `entity` or its sub-entities.
    func sourceNumbers(into entity: EntityLayout) -> [Int] {
        entity.entityNumbers.compactMap { destinationLayout.entity(number: $0).flatMap { sourceEntity(of: $0.name)?.number } }
    }

    /// `CASE x WHEN old THEN new … END`: a `Z_ENT` value in the destination's numbering.
    func renumbered(_ expression: String) -> String {
        let cases = numberMap.sorted { $0.key < $1.key }.map { "WHEN \($0.key) THEN \($0.value)" }
        return cases.isEmpty ? "NULL" : "CASE \(expression) \(cases.joined(separator: " ")) END"
    }

    private func copyEntityTable(_ table: TableLayout, _ db: Database) throws -> Int {
        let members = destinationLayout.entities.filter { $0.tableName == table.name }
        let sources = members.compactMap { sourceEntity(of: $0.name) }
        guard !sources.isEmpty else { return 0 }
        let sourceTables = Set(sources.map(\.tableName))
        guard sourceTables.count == 1, let sourceTable = sourceTables.first else {
            throw StoreMigrationError(.schemaMismatch, "the rows of \(table.name) would come from \(sourceTables.sorted().joined(separator: " and "))",
                                      entity: members.first?.name)
        }
        let allSources = Set(sources.map(\.number))
        var row = EntityRowExpressions(values: ["Z_PK": "o.Z_PK", "Z_ENT": renumbered("o.Z_ENT"), "Z_OPT": "o.Z_OPT"])
        for member in members {
            guard let mapping = plan.mapping(forEntity: member.name), let source = sourceEntity(of: member.name) else { continue }
            let subtree = sourceNumbers(into: member)
            row.scope = Set(subtree) == allSources ? nil : subtree
            try addAttributes(of: mapping, member: member, source: source, to: &row)
            for relationship in mapping.relationships {
                addForeignKey(relationship, member: member, source: source, to: &row)
            }
        }
        let columns = table.columns.map(\.name).filter { row.values[$0] != nil }
        let sql = "INSERT INTO \(table.name) (\(columns.joined(separator: ", "))) SELECT "
            + columns.compactMap { row.values[$0] }.joined(separator: ", ")
            + " FROM \(setAsideName(sourceTable)) o WHERE o.Z_ENT IN (\(allSources.sorted().map(String.init).joined(separator: ", ")))"
        try db.execute(sql: sql, arguments: StatementArguments(columns.compactMap { row.arguments[$0] }))
        return db.changesCount
    }

    private func addAttributes(of mapping: EntityMapping, member: EntityLayout, source: EntityLayout,
                               to row: inout EntityRowExpressions) throws {
        for attribute in mapping.attributes {
            guard let column = member.attributes[attribute.name]?.column else { continue }
            switch attribute.source {
            case .attribute(let from):
                guard let old = source.attributes[from]?.column else {
                    throw StoreMigrationError(.schemaMismatch, "the source has no column for \(from)", entity: member.name, property: attribute.name)
                }
                if attribute.fillsNullsWithDefault, let value = try DefaultValueColumn.value(of: attribute, entity: member.name) {
                    row.set(column, "COALESCE(o.\(old), ?)", argument: value)
                } else {
                    row.set(column, "o.\(old)")
                }
            case .defaultValue:
                if let value = try DefaultValueColumn.value(of: attribute, entity: member.name) {
                    row.set(column, "?", argument: value)
                }
            case .derivation:
                // The value a derivation computed before, until the app changes the row.
                if let old = source.attributes[attribute.name]?.column { row.set(column, "o.\(old)") }
            }
        }
    }

    /// A to-one relationship's columns: the key, the polymorphic `Z<n>_`
    /// entity column renumbered, and the `Z_FOK_` order.
    private func addForeignKey(_ relationship: RelationshipMapping, member: EntityLayout, source: EntityLayout,
                               to row: inout EntityRowExpressions) {
        guard case .foreignKey(let column, let entityColumn, let orderColumn)? = member.relationships[relationship.name],
              let links = self.links(for: relationship, ofEntity: member.name, setAside: true) else { return }
        var key: String
        let order: String?
        if let name = relationship.sourceName, case .foreignKey(let old, let oldEntity, let oldOrder)? = source.relationships[name] {
            // Kept on the same row: copy the columns.
            key = "o.\(old)"
            order = oldOrder.map { "o.\($0)" }
            if let entityColumn, let oldEntity {
                row.set(entityColumn, renumbered("o.\(oldEntity)"))
            }
        } else {
            key = links.firstTarget(of: "o.Z_PK")
            order = links.firstOrder(of: "o.Z_PK")
        }
        if let kept = keptCondition(key, inSetAside: links.targetTable) {
            key = "CASE WHEN \(kept) THEN \(key) END"
        }
        row.set(column, key)
        if let entityColumn, row.values[entityColumn] == nil {
            row.set(entityColumn, renumbered("(SELECT t.Z_ENT FROM \(links.targetTable) t WHERE t.Z_PK = \(key))"))
        }
        if let orderColumn {
            // Newly ordered: the primary-key order it was read in before.
            row.set(orderColumn, order ?? "CASE WHEN \(key) IS NOT NULL THEN o.Z_PK END")
        }
    }

    /// `EXISTS (…)`: the row of the set-aside `table` whose `Z_PK` is `key`
    /// is copied; nil when every row of the table is (no entity of it was removed).
    func keptCondition(_ key: String, inSetAside table: String) -> String? {
        let entities = sourceLayout.entities.filter { setAsideName($0.tableName) == table }
        guard entities.contains(where: { numberMap[$0.number] == nil }) else { return nil }
        let kept = entities.map(\.number).filter { numberMap[$0] != nil }
        return "EXISTS (SELECT 1 FROM \(table) k WHERE k.Z_PK = \(key) AND k.Z_ENT IN (\(kept.map(String.init).joined(separator: ", "))))"
    }

    /// Where a destination relationship's links come from: its source
    /// relationship, or, for a new one, its inverse's source reversed.
    func links(for relationship: RelationshipMapping, ofEntity entity: String, setAside: Bool) -> MigrationLinks? {
        let name: (String) -> String = { setAside ? self.setAsideName($0) : $0 }
        if let sourceName = relationship.sourceName {
            guard let source = sourceEntity(of: entity) else { return nil }
            return MigrationLinks.of(sourceName, entity: source, in: sourceLayout, oldName: name)
        }
        let model = destinationLayout.model
        guard let description = model.relationship(relationship.name, ofEntityNamed: entity),
              let inverse = model.inverseRelationship(of: description),
              let owner = model.lineage(ofEntityNamed: description.destinationEntityName)
                  .last(where: { $0.relationships.contains { $0.name == inverse.name } }),
              let inverseSource = plan.mapping(forEntity: owner.name)?.relationships.first(where: { $0.name == inverse.name })?.sourceName,
              let ownerSource = sourceEntity(of: owner.name) else { return nil }
        return MigrationLinks.of(inverseSource, entity: ownerSource, in: sourceLayout, oldName: name)?.reversed
    }

    // MARK: Join tables

    private func copyJoinTable(_ table: TableLayout, _ db: Database) throws -> Int {
        let model = destinationLayout.model
        for entity in destinationLayout.entities {
            for (name, storage) in entity.relationships {
                guard case .joinTable(let joinTable, let sourceColumn, let destinationColumn, let order) = storage,
                      joinTable == table.name, sourceColumn == table.compositePrimaryKey.first,
                      let owner = model.lineage(ofEntityNamed: entity.name).last(where: { $0.relationships.contains { $0.name == name } }),
                      let mapping = plan.mapping(forEntity: owner.name)?.relationships.first(where: { $0.name == name }) else { continue }
                guard let links = self.links(for: mapping, ofEntity: owner.name, setAside: true) else { return 0 }
                var columns = [(sourceColumn, links.owner), (destinationColumn, links.target)]
                if let order, let old = links.order { columns.append((order, old)) }
                if let description = model.relationship(name, ofEntityNamed: entity.name),
                   let inverse = model.inverseRelationship(of: description),
                   case .joinTable(_, _, _, let inverseOrder)? = destinationLayout.entity(named: description.destinationEntityName)?.relationships[inverse.name],
                   let inverseOrder, let old = links.inverseOrder {
                    columns.append((inverseOrder, old))
                }
                // Links to or from objects of a removed entity go with them.
                let kept = [keptCondition(links.owner, inSetAside: links.ownerTable), keptCondition(links.target, inSetAside: links.targetTable)]
                    .compactMap { $0 }.map { " AND \($0)" }.joined()
                try db.execute(sql: "INSERT OR IGNORE INTO \(table.name) (\(columns.map(\.0).joined(separator: ", "))) SELECT "
                               + columns.map(\.1).joined(separator: ", ") + " FROM \(links.from) WHERE \(links.filter)\(kept)")
                return db.changesCount
            }
        }
        return 0
    }

    // MARK: Z_PRIMARYKEY

    /// One row per destination entity in the new numbering, each with the
    /// largest key its source entity had allocated; rows that are not the
    /// model's entities (persistent history's) stay.
    private func rewritePrimaryKeys(_ db: Database) throws {
        let old = try PrimaryKeyRow.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY")
        let modelNumbers = Set(sourceLayout.entities.map(\.number)).union(destinationLayout.entities.map(\.number))
        try db.execute(sql: "DELETE FROM Z_PRIMARYKEY")
        for entity in destinationLayout.entities {
            var maximum = sourceEntity(of: entity.name).flatMap { source in old.first { $0.entityNumber == source.number }?.maximumKey } ?? 0
            if entity.isRoot {
                maximum = max(maximum, try Int64.fetchOne(db, sql: "SELECT max(Z_PK) FROM \(entity.tableName)") ?? 0)
            }
            try db.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)",
                           arguments: [entity.number, entity.name, entity.superNumber, maximum])
        }
        for row in old where !modelNumbers.contains(row.entityNumber) {
            try db.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)",
                           arguments: [row.entityNumber, row.name, row.superNumber, row.maximumKey])
        }
    }
}

/// The `SELECT` expression of each column of a destination entity table,
/// with the argument of a `?` it holds.
struct EntityRowExpressions {
    var values: [String: String]
    var arguments: [String: DatabaseValue] = [:]
    /// The source entity numbers of the rows the entity being added owns,
    /// or nil when it owns them all: other rows get NULL in its columns.
    var scope: [Int]?

    mutating func set(_ column: String, _ expression: String, argument: DatabaseValue? = nil) {
        if let scope {
            values[column] = "CASE WHEN o.Z_ENT IN (\(scope.map(String.init).joined(separator: ", "))) THEN \(expression) END"
        } else {
            values[column] = expression
        }
        arguments[column] = argument
    }
}
