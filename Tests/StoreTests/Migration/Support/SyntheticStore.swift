import Foundation
import Testing
import GRDB
import Store

/// A store written from a model's layout with raw SQL, as Core Data would
/// lay it out: for the migrations no fixture covers (many-to-many join
/// tables, polymorphic keys, ordered relationships, renamed sub-entities).
struct SyntheticStore {
    let path: String
    let layout: StoreLayout
    let queue: DatabaseQueue

    /// Creates the store, or with `creating` false opens the one at `path`.
    init(path: String, model: ObjectModel, creating: Bool = true) throws {
        self.path = path
        layout = try StoreLayout(model: model)
        queue = try DatabaseQueue(path: path)
        guard creating else { return }
        try queue.write { [layout] db in
            for statement in layout.schemaStatements { try db.execute(sql: statement) }
            for entity in layout.entities {
                try db.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                               arguments: [entity.number, entity.name, entity.superNumber])
            }
            try db.execute(sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                           arguments: ["5E1F7A1C-0000-4000-8000-000000000001", StoreMetadata(model: model).propertyListData()])
            try db.execute(sql: "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", arguments: [model.modelCacheData()])
        }
    }

    /// Inserts an object: `values` by attribute name, `toOne` by relationship name (key and entity).
    func insert(_ entityName: String, key: Int64, values: [String: DatabaseValueConvertible?] = [:],
                toOne: [String: (key: Int64, entity: String)] = [:], order: [String: Int] = [:]) throws {
        let entity = try layout.requireEntity(entityName)
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
        var arguments: [DatabaseValueConvertible?] = [key, entity.number, 1]
        for (name, value) in values {
            columns.append(try #require(entity.attributes[name]).column)
            arguments.append(value)
        }
        for (name, target) in toOne {
            guard case .foreignKey(let column, let entityColumn, let orderColumn)? = entity.relationships[name] else { continue }
            columns.append(column)
            arguments.append(target.key)
            if let entityColumn {
                columns.append(entityColumn)
                arguments.append(try layout.requireEntity(target.entity).number)
            }
            if let orderColumn, let position = order[name] {
                columns.append(orderColumn)
                arguments.append(position)
            }
        }
        try queue.write { db in
            try db.execute(sql: "INSERT INTO \(entity.tableName) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))",
                           arguments: StatementArguments(arguments))
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = max(Z_MAX, ?) WHERE Z_ENT = ?",
                           arguments: [key, layout.entity(named: entity.rootName)?.number])
        }
    }

    /// Links two objects through a many-to-many relationship of `entityName`.
    func link(_ entityName: String, _ relationship: String, from owner: Int64, to target: Int64) throws {
        let entity = try layout.requireEntity(entityName)
        guard case .joinTable(let table, let sourceColumn, let destinationColumn, _)? = entity.relationships[relationship] else {
            throw StoreError(.invalidValue, "\(relationship) is not many-to-many", entity: entityName)
        }
        try queue.write { db in
            try db.execute(sql: "INSERT INTO \(table) (\(sourceColumn), \(destinationColumn)) VALUES (?, ?)", arguments: [owner, target])
        }
    }

    func close() throws { try queue.close() }
}
