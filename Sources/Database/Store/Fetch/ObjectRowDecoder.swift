import GRDB
import PredicateFormat

/// Turns the rows of one statement into objects, finding each column by
/// name once per entity instead of once per row.
///
/// A row read by column name searches the statement's columns with a
/// case-insensitive comparison; for a 50-object fetch those searches cost
/// about as much as SQLite's own work. The decoder resolves every column
/// of an entity the first time a row of that entity (its `Z_ENT`) appears,
/// then reads the remaining rows by index.
struct ObjectRowDecoder {
    let layout: StoreLayout
    /// Column index by upper-cased name (SQLite's names compare without case).
    private let columnIndexes: [String: Int]
    private let primaryKeyIndex: Int?
    private let entityIndex: Int?
    private let versionIndex: Int?
    private var plans: [Int: Plan] = [:]

    /// Where one entity's values are in the statement's columns.
    private struct Plan {
        var entity: EntityLayout
        var attributes: [(name: String, index: Int?, type: AttributeType)]
        var toOne: [(name: String, keyIndex: Int, entityIndex: Int?, declaredDestination: String)]
    }

    init(layout: StoreLayout, columnNames: [String]) {
        self.layout = layout
        var indexes: [String: Int] = [:]
        for (index, name) in columnNames.enumerated() where indexes[name.uppercased()] == nil {
            indexes[name.uppercased()] = index
        }
        columnIndexes = indexes
        primaryKeyIndex = indexes["Z_PK"]
        entityIndex = indexes["Z_ENT"]
        versionIndex = indexes["Z_OPT"]
    }

    /// The object a row of an entity table holds, by the row's `Z_ENT`;
    /// nil for a row of an entity the model does not know.
    mutating func object(from row: Row) -> ManagedObject? {
        let number: Int = entityIndex.flatMap { row[$0] } ?? 0
        guard let plan = plan(forEntityNumber: number) else { return nil }
        var values: [String: AttributeValue] = [:]
        values.reserveCapacity(plan.attributes.count)
        for attribute in plan.attributes {
            let value: DatabaseValue = attribute.index.map { row[$0] } ?? .null
            values[attribute.name] = ColumnValueCoding.attributeValue(value, type: attribute.type)
        }
        var toOne: [String: ObjectID] = [:]
        for relationship in plan.toOne {
            guard let key: Int64 = row[relationship.keyIndex] else { continue }
            let destinationNumber: Int? = relationship.entityIndex.flatMap { row[$0] }
            let destination = destinationNumber.flatMap { layout.entity(number: $0)?.name } ?? relationship.declaredDestination
            toOne[relationship.name] = ObjectID(entityName: destination, primaryKey: key)
        }
        return ManagedObject(objectID: ObjectID(entityName: plan.entity.name, primaryKey: primaryKeyIndex.flatMap { row[$0] } ?? 0),
                             version: versionIndex.flatMap { row[$0] } ?? 0, values: values, toOne: toOne)
    }

    private mutating func plan(forEntityNumber number: Int) -> Plan? {
        if let plan = plans[number] { return plan }
        guard let entity = layout.entity(number: number) else { return nil }
        let attributes = entity.attributes.map { name, attribute in
            (name: name, index: columnIndexes[attribute.column.uppercased()], type: attribute.type)
        }
        var toOne: [(name: String, keyIndex: Int, entityIndex: Int?, declaredDestination: String)] = []
        for (name, storage) in entity.relationships {
            guard case .foreignKey(let column, let entityColumn, _) = storage,
                  let keyIndex = columnIndexes[column.uppercased()] else { continue }
            toOne.append((name, keyIndex, entityColumn.flatMap { columnIndexes[$0.uppercased()] },
                          layout.model.relationship(name, ofEntityNamed: entity.name)?.destinationEntityName ?? ""))
        }
        let plan = Plan(entity: entity, attributes: attributes, toOne: toOne)
        plans[number] = plan
        return plan
    }
}

extension StoreLayout {
    /// The objects the rows of `statement` hold, in the statement's order;
    /// rows of entities the model does not know are left out.
    func objects(_ statement: Statement, arguments: StatementArguments = StatementArguments()) throws -> [ManagedObject] {
        var decoder = ObjectRowDecoder(layout: self, columnNames: statement.columnNames)
        var objects: [ManagedObject] = []
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        while let row = try rows.next() {
            if let object = decoder.object(from: row) { objects.append(object) }
        }
        return objects
    }
}
