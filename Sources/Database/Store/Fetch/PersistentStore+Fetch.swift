import GRDB
import PredicateFormat

extension PersistentStore {
    /// The objects the request matches, in its order.
    public func fetch(_ request: FetchRequest) throws(StoreError) -> [ManagedObject] {
        let statement = try selectStatement(for: request, columns: "t0.*")
        return try read { db in
            // The connection's statement cache: a list that fetches the same
            // request again (a search as the user types, a controller's
            // refresh) skips SQLite's compile.
            try layout.objects(try db.cachedStatement(sql: statement.sql), arguments: statement.arguments)
        }
    }

    /// The identifiers of the objects the request matches, in its order,
    /// reading two integer columns a row.
    public func fetchObjectIDs(_ request: FetchRequest) throws(StoreError) -> [ObjectID] {
        let statement = try selectStatement(for: request, columns: "t0.Z_PK, t0.Z_ENT")
        let names = Dictionary(uniqueKeysWithValues: layout.entities.map { ($0.number, $0.name) })
        return try read { db in
            var ids: [ObjectID] = []
            let rows = try Row.fetchCursor(try db.cachedStatement(sql: statement.sql), arguments: statement.arguments)
            while let row = try rows.next() {
                let number: Int = row[1]
                ids.append(ObjectID(entityName: names[number] ?? request.entityName, primaryKey: row[0]))
            }
            return ids
        }
    }

    /// How many objects the request matches (`countForFetchRequest`), its
    /// limit and offset applied.
    public func count(_ request: FetchRequest) throws(StoreError) -> Int {
        let statement = try selectStatement(for: request, columns: "1", ordered: false)
        return try read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM (\(statement.sql))", arguments: statement.arguments) ?? 0
        }
    }

    /// The requested attributes of the matching objects, as dictionaries
    /// (`NSDictionaryResultType`); with no `propertiesToFetch`, all attributes.
    public func fetchDictionaries(_ request: FetchRequest) throws(StoreError) -> [[String: AttributeValue]] {
        let entity = try layout.requireEntity(request.entityName)
        let names = request.propertiesToFetch.isEmpty ? Array(entity.attributes.keys) : request.propertiesToFetch
        var columns: [(String, AttributeColumn)] = []
        for name in names {
            guard let column = entity.attributes[name] else {
                throw StoreError(.invalidValue, "entity \(entity.name) has no attribute \(name) to fetch", path: path, entity: entity.name)
            }
            columns.append((name, column))
        }
        let list = columns.isEmpty ? "t0.Z_PK" : columns.map { "t0.\($0.1.column)" }.joined(separator: ", ")
        let statement = try selectStatement(for: request, columns: list)
        return try read { db in
            try Row.fetchAll(db, sql: statement.sql, arguments: statement.arguments).map { row in
                var values: [String: AttributeValue] = [:]
                for (index, (name, column)) in columns.enumerated() {
                    values[name] = ColumnValueCoding.attributeValue(row[index] ?? .null, type: column.type)
                }
                return values
            }
        }
    }

    /// The request's SQL: `SELECT … FROM Z<ROOT> AS t0 WHERE … ORDER BY … LIMIT …`,
    /// the shape hand-written SQL would have.
    public func selectStatement(for request: FetchRequest, columns: String, ordered: Bool = true) throws(StoreError) -> PredicateSQL {
        let entity = try layout.requireEntity(request.entityName)
        var schema = sqlSchema
        if !request.includesSubentities, var mapping = schema.entities[entity.name] {
            mapping.entityIDs = [entity.number]
            schema.entities[entity.name] = mapping
        }
        do {
            return try PredicateSQLCompiler(schema: schema).selectStatement(
                entity: entity.name, columns: columns, predicate: request.predicate,
                sortDescriptors: ordered ? request.sortDescriptors : [],
                limit: request.fetchLimit > 0 ? request.fetchLimit : nil,
                offset: request.fetchOffset > 0 ? request.fetchOffset : nil)
        } catch {
            throw StoreError(.invalidValue, "the fetch request cannot be compiled", path: path, entity: entity.name).caused(by: error)
        }
    }
}

extension PersistentStore {
    /// The configuration of every connection to a store: the predicate
    /// language's folding, LIKE, MATCHES and collation functions are
    /// registered on each, so any compiled fetch runs on any connection.
    static func connectionConfiguration() -> Configuration {
        var configuration = Configuration()
        configuration.prepareDatabase { db in db.registerPredicateFunctions() }
        return configuration
    }
}
