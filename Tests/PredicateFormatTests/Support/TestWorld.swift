import Foundation
import GRDB
import PredicateFormat

/// People, departments, pets, toys and tags, both as objects and as rows in an in-memory database.
struct TestWorld {
    var people: [TestObject] = []
    var departments: [TestObject] = []
    var pets: [TestObject] = []
    var toys: [(name: String, owner: Int64)] = []
    var tags: [TestObject] = []
    let database: DatabaseQueue
    let compiler = PredicateSQLCompiler(schema: TestSchema.schema)

    init(people: [TestObject], departments: [TestObject], pets: [TestObject], tags: [TestObject], toys: [(String, Int64)] = []) throws {
        self.people = people
        self.departments = departments
        self.pets = pets
        self.tags = tags
        self.toys = toys.map { (name: $0.0, owner: $0.1) }
        var configuration = Configuration()
        configuration.prepareDatabase { db in db.registerPredicateFunctions() }
        database = try DatabaseQueue(configuration: configuration)
        try database.write { [self] db in
            try db.execute(sql: TestSchema.createTables)
            for department in departments {
                try db.execute(sql: "INSERT INTO ZDEPT VALUES (?, 2, 1, ?, ?)", arguments: [
                    department.primaryKey, department.attributes["name"]?.databaseValue, department.attributes["budget"]?.databaseValue])
            }
            for person in people {
                var values: [DatabaseValue] = [person.primaryKey.databaseValue]
                for key in ["name", "age", "score", "active", "born", "balance", "uid", "homepage", "photo"] {
                    values.append((person.attributes[key] ?? .null).databaseValue)
                }
                let dept = person.toOne["dept"] ?? nil
                values.append(dept.map { $0.primaryKey.databaseValue } ?? .null)
                try db.execute(sql: "INSERT INTO ZPERSON VALUES (?, 1, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", arguments: StatementArguments(values))
                for tag in person.toMany["tags"] ?? [] {
                    try db.execute(sql: "INSERT INTO Z_1TAGS VALUES (?, ?)", arguments: [person.primaryKey, tag.primaryKey])
                }
            }
            for pet in pets {
                let owner = pet.toOne["owner"] ?? nil
                try db.execute(sql: "INSERT INTO ZPET VALUES (?, 3, 1, ?, ?, ?)", arguments: [
                    pet.primaryKey, pet.attributes["name"]?.databaseValue, pet.attributes["weight"]?.databaseValue, owner?.primaryKey])
            }
            var toyKey: Int64 = 1_000_000
            for toy in self.toys {
                toyKey += 1
                try db.execute(sql: "INSERT INTO ZPET VALUES (?, 5, 1, ?, NULL, ?)", arguments: [toyKey, toy.name, toy.owner])
            }
            for tag in tags {
                try db.execute(sql: "INSERT INTO ZTAG VALUES (?, 4, 1, ?)", arguments: [tag.primaryKey, tag.attributes["name"]?.databaseValue])
            }
        }
    }

    /// Primary keys of the people matching, evaluated in memory, in key order.
    func memoryMatches(_ predicate: FormatPredicate) throws -> [Int64] {
        try people.filter { try predicate.evaluate(with: $0) }.map(\.primaryKey)
    }

    /// Primary keys of the people matching, through SQL, in key order.
    func sqlMatches(_ predicate: FormatPredicate) throws -> [Int64] {
        let statement = try compiler.selectStatement(entity: "Person", columns: "t0.Z_PK", predicate: predicate)
        return try database.read { db in try Int64.fetchAll(db, sql: statement.sql, arguments: statement.arguments) }
    }

    /// Primary keys of all people sorted in memory (ties by key, as the SQL adds `Z_PK`).
    func memorySorted(_ descriptors: [StoreSortDescriptor]) throws -> [Int64] {
        // Each key is read once per person, then compared as the descriptors compare values.
        let keyed = try people.map { person in (person.primaryKey, try descriptors.map { try $0.value(of: person) }) }
        let sorted = keyed.sorted { a, b in
            for (index, descriptor) in descriptors.enumerated() {
                let order = descriptor.compareValues(a.1[index], b.1[index])
                if order != 0 { return order < 0 }
            }
            return a.0 < b.0
        }
        return sorted.map(\.0)
    }

    func sqlSorted(_ descriptors: [StoreSortDescriptor], predicate: FormatPredicate? = nil, limit: Int? = nil) throws -> [Int64] {
        let statement = try compiler.selectStatement(entity: "Person", columns: "t0.Z_PK", predicate: predicate,
                                                     sortDescriptors: descriptors, limit: limit)
        return try database.read { db in try Int64.fetchAll(db, sql: statement.sql, arguments: statement.arguments) }
    }
}
