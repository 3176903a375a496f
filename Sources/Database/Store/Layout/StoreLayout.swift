import OrderedCollections

/// How Core Data lays a model out in SQLite: entity numbers, tables,
/// columns, join tables and indexes.
///
/// The layout is derived from the model alone, exactly as Core Data
/// derives it, so a store this package creates reads the same in
/// `sqlite_master` as one Core Data made for the same model, and a store
/// Core Data made can be read through the model. See the article
/// <doc:CoreDataLayout> for the rules.
public struct StoreLayout: Sendable, Hashable {
    public var model: ObjectModel
    /// Every entity, in entity-number order (`Z_ENT` 1, 2, …).
    public var entities: [EntityLayout]
    /// Entity tables and join tables, in the order Core Data creates them.
    public var tables: [TableLayout]
    /// The indexes, in the order Core Data creates them (after the tables).
    public var indexes: [IndexLayout]

    /// The layout of the entity named `name`.
    public func entity(named name: String) -> EntityLayout? {
        entities.first { $0.name == name }
    }

    /// The layout of the entity numbered `number` (a row's `Z_ENT`).
    public func entity(number: Int) -> EntityLayout? {
        entities.first { $0.number == number }
    }

    /// The layout of the entity named `name`, or a typed error naming it.
    public func requireEntity(_ name: String) throws(StoreError) -> EntityLayout {
        guard let entity = entity(named: name) else {
            throw StoreError(.invalidValue, "the model has no entity named \(name)", entity: name)
        }
        return entity
    }

    /// The table named `name`.
    public func table(named name: String) -> TableLayout? {
        tables.first { $0.name == name }
    }

    /// Core Data's bookkeeping tables, created after the model's.
    public static let bookkeepingStatements = [
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
        "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
    ]

    /// Every statement that creates the store's schema, in Core Data's order:
    /// the model's tables, their indexes, then `Z_PRIMARYKEY`, `Z_METADATA`
    /// and `Z_MODELCACHE`.
    public var schemaStatements: [String] {
        tables.map(\.createStatement) + indexes.map(\.createStatement) + Self.bookkeepingStatements
    }
}

extension StoreLayout {
    /// Lays the model out as Core Data does.
    ///
    /// - Throws: ``StoreErrorCode/invalidModel`` when a relationship names
    ///   an entity the model lacks, an entity's super-entity is missing, or
    ///   super-entities form a cycle.
    public init(model: ObjectModel) throws(StoreError) {
        try Self.validate(model)
        self.model = model
        let ordered = Self.entitiesInNumberOrder(model)
        var numbers: [String: Int] = [:]
        for (index, entity) in ordered.enumerated() { numbers[entity.name] = index + 1 }

        var builder = LayoutBuilder(model: model, numbers: numbers)
        for root in model.sortedRootEntities { builder.layOutTable(root: root) }
        builder.layOutJoinTables(ordered: ordered)

        entities = ordered.map { entity in
            let root = model.rootEntity(ofEntityNamed: entity.name) ?? entity
            let numbersBelow = Self.preorder(model, from: entity).compactMap { numbers[$0.name] }
            return EntityLayout(
                name: entity.name,
                number: numbers[entity.name] ?? 0,
                superNumber: entity.superentityName.flatMap { numbers[$0] } ?? 0,
                rootName: root.name,
                tableName: Self.tableName(root: root.name),
                entityNumbers: numbersBelow,
                attributes: builder.attributeColumns(of: entity.name),
                relationships: builder.relationshipStorage(of: entity.name)
            )
        }
        tables = builder.orderedTables
        indexes = builder.indexes
    }

    /// `Z` and the root entity's name uppercased.
    public static func tableName(root: String) -> String { "Z" + root.uppercased() }

    /// Roots sorted by name, each followed by its sub-entities depth-first
    /// (siblings by name): the order of `Z_ENT` numbers.
    static func entitiesInNumberOrder(_ model: ObjectModel) -> [EntityDescription] {
        model.sortedRootEntities.flatMap { preorder(model, from: $0) }
    }

    static func preorder(_ model: ObjectModel, from entity: EntityDescription) -> [EntityDescription] {
        [entity] + model.sortedSubentities(ofEntityNamed: entity.name).flatMap { preorder(model, from: $0) }
    }

    static func validate(_ model: ObjectModel) throws(StoreError) {
        var seen = Set<String>()
        for entity in model.entities {
            guard seen.insert(entity.name).inserted else {
                throw StoreError(.invalidModel, "two entities are named \(entity.name)", entity: entity.name)
            }
        }
        for entity in model.entities {
            if let parent = entity.superentityName, model.entity(named: parent) == nil {
                throw StoreError(.invalidModel, "super-entity \(parent) is not in the model", entity: entity.name)
            }
            if model.lineage(ofEntityNamed: entity.name).first?.superentityName != nil {
                throw StoreError(.invalidModel, "super-entities form a cycle", entity: entity.name)
            }
            for relationship in entity.relationships where model.entity(named: relationship.destinationEntityName) == nil {
                throw StoreError(.invalidModel,
                                 "relationship \(relationship.name) names missing entity \(relationship.destinationEntityName)",
                                 entity: entity.name)
            }
        }
    }
}

/// The rank of a column in Core Data's declaration order: integers first
/// (attributes, then foreign keys, entity by entity), then 8-byte numbers
/// and dates, decimals, strings, blobs, and transformables last.
private func columnRank(_ type: AttributeType) -> Int {
    switch type {
    case .integer16, .integer32, .integer64, .boolean, .objectID: 0
    case .double, .float, .date: 1
    case .decimal: 2
    case .string, .uri: 3
    case .binaryData, .uuid, .undefined, .composite: 4
    case .transformable: 5
    }
}

/// Accumulates tables, columns and indexes while the model is walked.
private struct LayoutBuilder {
    let model: ObjectModel
    let numbers: [String: Int]
    var entityTables: [String: TableLayout] = [:]
    var joinTablesByOwnerRoot: [String: [TableLayout]] = [:]
    var tableOrder: [String] = []
    var indexesByTable: [String: [IndexLayout]] = [:]
    /// entity name → property name → column (own and inherited resolved later).
    var ownAttributeColumns: [String: OrderedDictionary<String, AttributeColumn>] = [:]
    var ownRelationshipStorage: [String: OrderedDictionary<String, RelationshipStorage>] = [:]

    init(model: ObjectModel, numbers: [String: Int]) {
        self.model = model
        self.numbers = numbers
    }

    /// One slot of a table, before the columns are sorted.
    struct Slot {
        var rank: Int
        var entityIndex: Int
        var kind: Int      // 0 attribute, 1 relationship
        var name: String
        var part: Int      // 0 key, 1 entity column, 2 order column
        var column: ColumnLayout
    }

    mutating func layOutTable(root: EntityDescription) {
        let table = StoreLayout.tableName(root: root.name)
        let hierarchy = StoreLayout.preorder(model, from: root)
        var used: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
        var slots: [Slot] = []
        var foreignKeyColumns: [String] = []

        func claim(_ base: String) -> String {
            var name = base
            var suffix = 1
            while used.contains(name) {
                name = base + String(suffix)
                suffix += 1
            }
            used.insert(name)
            return name
        }

        for (entityIndex, entity) in hierarchy.enumerated() {
            var attributes: OrderedDictionary<String, AttributeColumn> = [:]
            for attribute in entity.attributes.filter({ !$0.isTransient }).sorted(by: { $0.name < $1.name }) {
                let column = claim("Z" + attribute.name.uppercased())
                attributes[attribute.name] = AttributeColumn(column: column, type: attribute.type)
                slots.append(Slot(rank: columnRank(attribute.type), entityIndex: entityIndex, kind: 0, name: attribute.name,
                                  part: 0, column: ColumnLayout(name: column, sqlType: attribute.type.sqlColumnType)))
            }
            ownAttributeColumns[entity.name] = attributes

            var storage: OrderedDictionary<String, RelationshipStorage> = [:]
            for relationship in entity.relationships.filter({ !$0.isTransient && !$0.isToMany })
                .sorted(by: { $0.name < $1.name }) {
                let upper = relationship.name.uppercased()
                let column = claim("Z" + upper)
                let integer = { (name: String) in ColumnLayout(name: name, sqlType: "INTEGER") }
                slots.append(Slot(rank: 0, entityIndex: entityIndex, kind: 1, name: relationship.name, part: 0,
                                  column: integer(column)))
                foreignKeyColumns.append(column)
                var entityColumn: String?
                if let destination = model.entity(named: relationship.destinationEntityName),
                   !model.sortedSubentities(ofEntityNamed: destination.name).isEmpty {
                    let name = claim("Z\(numbers[destination.name] ?? 0)_" + upper)
                    entityColumn = name
                    slots.append(Slot(rank: 0, entityIndex: entityIndex, kind: 1, name: relationship.name, part: 1,
                                      column: integer(name)))
                }
                var orderColumn: String?
                if let inverse = model.inverseRelationship(of: relationship), inverse.isToMany, inverse.isOrdered {
                    let name = claim("Z_FOK_" + upper)
                    orderColumn = name
                    slots.append(Slot(rank: 0, entityIndex: entityIndex, kind: 1, name: relationship.name, part: 2,
                                      column: integer(name)))
                }
                storage[relationship.name] = .foreignKey(column: column, entityColumn: entityColumn, orderColumn: orderColumn)
            }
            ownRelationshipStorage[entity.name] = storage
        }

        slots.sort { a, b in
            (a.rank, a.entityIndex, a.kind, a.name, a.part) < (b.rank, b.entityIndex, b.kind, b.name, b.part)
        }
        let fixed = ["Z_PK", "Z_ENT", "Z_OPT"].map { ColumnLayout(name: $0, sqlType: "INTEGER") }
        entityTables[root.name] = TableLayout(name: table, columns: fixed + slots.map(\.column))
        tableOrder.append(root.name)

        var indexes = foreignKeyColumns.sorted { a, b in
            (slots.firstIndex { $0.column.name == a } ?? 0) < (slots.firstIndex { $0.column.name == b } ?? 0)
        }.map { IndexLayout(name: "\(table)_\($0)_INDEX", table: table, columns: [$0]) }
        if hierarchy.count > 1 {
            indexes.append(IndexLayout(name: "\(table)_Z_ENT_INDEX", table: table, columns: ["Z_ENT"]))
        }
        // Fetch indexes (binary ones: an R-tree index is a virtual table this layout does not make), then uniqueness constraints.
        for entity in hierarchy {
            for index in entity.fetchIndexes where index.elements.allSatisfy({ $0.kind == .binary }) {
                let columns = index.elements.compactMap { columnOfProperty($0.propertyName, entity: entity.name) }
                guard columns.count == index.elements.count, !columns.isEmpty else { continue }
                let descending = Set(zip(index.elements, columns).filter { !$0.0.isAscending }.map(\.1))
                indexes.append(IndexLayout(name: "Z_\(entity.name)_\(index.name)", table: table, columns: columns,
                                           isCollated: true, descendingColumns: descending))
            }
        }
        for entity in hierarchy {
            for constraint in entity.uniquenessConstraints where !constraint.isEmpty {
                let columns = constraint.compactMap { columnOfProperty($0, entity: entity.name) }
                guard columns.count == constraint.count else { continue }
                indexes.append(IndexLayout(name: "Z_\(entity.name)_UNIQUE_" + constraint.joined(separator: "_"),
                                           table: table, columns: columns, isUnique: true, isCollated: true))
            }
        }
        indexesByTable[table] = indexes
    }

    func columnOfProperty(_ name: String, entity: String) -> String? {
        for ancestor in model.lineage(ofEntityNamed: entity).reversed() {
            if let column = ownAttributeColumns[ancestor.name]?[name]?.column { return column }
            if case .foreignKey(let column, _, _) = ownRelationshipStorage[ancestor.name]?[name] { return column }
        }
        return nil
    }

    /// To-many relationships: through the inverse's foreign key when the
    /// inverse is to-one, otherwise through a join table named for the
    /// side whose entity name sorts first.
    mutating func layOutJoinTables(ordered: [EntityDescription]) {
        var joined = Set<String>()
        for entity in ordered {
            for relationship in entity.relationships.filter({ !$0.isTransient && $0.isToMany })
                .sorted(by: { $0.name < $1.name }) {
                let inverse = model.inverseRelationship(of: relationship)
                if let inverse, !inverse.isToMany, let destination = model.rootEntity(ofEntityNamed: relationship.destinationEntityName),
                   let inverseOwner = owner(of: inverse, in: relationship.destinationEntityName),
                   case .foreignKey(let column, _, let order) = ownRelationshipStorage[inverseOwner]?[inverse.name] {
                    ownRelationshipStorage[entity.name, default: [:]][relationship.name] =
                        .inverseForeignKey(table: StoreLayout.tableName(root: destination.name), column: column, orderColumn: order)
                    continue
                }
                let key = "\(entity.name).\(relationship.name)"
                if joined.contains(key) { continue }
                let inverseOwner = inverse.flatMap { owner(of: $0, in: relationship.destinationEntityName) }
                let ownsTable: Bool
                if let inverse, let inverseOwner {
                    ownsTable = (entity.name, relationship.name) <= (inverseOwner, inverse.name)
                } else {
                    ownsTable = true
                }
                guard ownsTable else { continue }
                let ownerNumber = numbers[entity.name] ?? 0
                let destinationNumber = numbers[inverseOwner ?? relationship.destinationEntityName] ?? 0
                let table = "Z_\(ownerNumber)\(relationship.name.uppercased())"
                let sourceColumn = "Z_\(ownerNumber)\((inverse?.name ?? entity.name).uppercased())"
                var destinationColumn = "Z_\(destinationNumber)\(relationship.name.uppercased())"
                if destinationColumn == sourceColumn { destinationColumn += "1" }
                var columns = [sourceColumn, destinationColumn].map { ColumnLayout(name: $0, sqlType: "INTEGER") }
                var order: String?
                if relationship.isOrdered {
                    order = "Z_FOK_" + destinationColumn.dropFirst(2)
                    columns.append(ColumnLayout(name: order ?? "", sqlType: "INTEGER"))
                }
                var inverseOrder: String?
                if let inverse, inverse.isOrdered {
                    inverseOrder = "Z_FOK_" + sourceColumn.dropFirst(2)
                    columns.append(ColumnLayout(name: inverseOrder ?? "", sqlType: "INTEGER"))
                }
                let root = model.rootEntity(ofEntityNamed: entity.name)?.name ?? entity.name
                joinTablesByOwnerRoot[root, default: []].append(
                    TableLayout(name: table, columns: columns, compositePrimaryKey: [sourceColumn, destinationColumn]))
                indexesByTable[table] = [IndexLayout(name: "\(table)_\(destinationColumn)_INDEX", table: table,
                                                     columns: [destinationColumn, sourceColumn])]
                ownRelationshipStorage[entity.name, default: [:]][relationship.name] =
                    .joinTable(table: table, sourceColumn: sourceColumn, destinationColumn: destinationColumn, orderColumn: order)
                if let inverse, let inverseOwner {
                    joined.insert("\(inverseOwner).\(inverse.name)")
                    ownRelationshipStorage[inverseOwner, default: [:]][inverse.name] =
                        .joinTable(table: table, sourceColumn: destinationColumn, destinationColumn: sourceColumn,
                                   orderColumn: inverseOrder)
                }
            }
        }
    }

    /// The entity (the given one or a super-entity) that declares `relationship`.
    func owner(of relationship: RelationshipDescription, in entity: String) -> String? {
        model.lineage(ofEntityNamed: entity).last { $0.relationships.contains { $0.name == relationship.name } }?.name
    }

    var orderedTables: [TableLayout] {
        tableOrder.flatMap { root -> [TableLayout] in
            guard let table = entityTables[root] else { return [] }
            return [table] + (joinTablesByOwnerRoot[root] ?? [])
        }
    }

    var indexes: [IndexLayout] {
        orderedTables.flatMap { indexesByTable[$0.name] ?? [] }
    }

    func attributeColumns(of entity: String) -> OrderedDictionary<String, AttributeColumn> {
        var merged: OrderedDictionary<String, AttributeColumn> = [:]
        for ancestor in model.lineage(ofEntityNamed: entity) {
            for (name, column) in ownAttributeColumns[ancestor.name] ?? [:] { merged[name] = column }
        }
        return merged
    }

    func relationshipStorage(of entity: String) -> OrderedDictionary<String, RelationshipStorage> {
        var merged: OrderedDictionary<String, RelationshipStorage> = [:]
        for ancestor in model.lineage(ofEntityNamed: entity) {
            for (name, storage) in ownRelationshipStorage[ancestor.name] ?? [:] { merged[name] = storage }
        }
        return merged
    }
}

extension StoreLayout {
    /// Takes each entity's number from a store's `Z_PRIMARYKEY` rows, found
    /// by the entity's name or its renaming identifier; the derived number
    /// stays where the store names no such entity.
    ///
    /// Core Data keeps the old name after a lightweight migration renames
    /// an entity (CoreDataPlus's SampleModel_V2 still says
    /// `ExpensiveSportCar` for `LuxuryCar`), and old stores may number
    /// entities differently from today's rules.
    public mutating func adoptEntityNumbers(_ rows: [PrimaryKeyRow]) {
        var renumbering: [Int: Int] = [:]
        for entity in entities {
            let description = model.entity(named: entity.name)
            let row = rows.first { $0.name == entity.name }
                ?? description?.renamingIdentifier.flatMap { old in rows.first { $0.name == old } }
            if let row, row.entityNumber != entity.number { renumbering[entity.number] = row.entityNumber }
        }
        guard !renumbering.isEmpty else { return }
        func renumber(_ number: Int) -> Int { renumbering[number] ?? number }
        entities = entities.map { entity in
            var copy = entity
            copy.number = renumber(entity.number)
            copy.superNumber = entity.superNumber == 0 ? 0 : renumber(entity.superNumber)
            copy.entityNumbers = entity.entityNumbers.map(renumber)
            return copy
        }
    }
}
