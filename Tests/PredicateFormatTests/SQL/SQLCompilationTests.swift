import Foundation
import GRDB
import PredicateFormat
import Testing

@Suite struct SQLCompilationTests {
    let compiler = PredicateSQLCompiler(schema: TestSchema.schema)

    func sql(_ format: String, _ arguments: any FormatArgumentConvertible...) throws -> PredicateSQL {
        try compiler.whereClause(for: FormatPredicate(format: format, arguments: arguments.map(\.formatArgumentValue)), entity: "Person")
    }

    @Test func plainContainsUsesInstr() throws {
        let condition = try sql("name CONTAINS %@", "lamp")
        #expect(condition.sql == "(coalesce(instr(t0.ZNAME, ?), 0) > 0)")
        #expect(condition.arguments == ["lamp"])
    }

    @Test func foldedContainsPrefoldsTheArgument() throws {
        let condition = try sql("name CONTAINS[cd] %@", "LÁMP")
        #expect(condition.sql == "pf_contains(t0.ZNAME, ?, 3)")
        #expect(condition.arguments == ["lamp"])
    }

    /// `[c]` with an ASCII needle: SQLite's LIKE (no function call) refuses
    /// most rows first; the needle's `%` and `_` are escaped.
    @Test func caseInsensitiveASCIIContainsIsPrefilteredByLike() throws {
        let condition = try sql("name CONTAINS[c] %@", "LAMP_1%")
        #expect(condition.sql == "((t0.ZNAME LIKE ? ESCAPE '\\') AND pf_contains(t0.ZNAME, ?, 1))")
        #expect(condition.arguments == [#"%LAMP\_1\%%"#, "lamp_1%"])
        let kelvin = try sql("name BEGINSWITH[c] %@", "kel")
        #expect(kelvin.sql == "pf_beginswith(t0.ZNAME, ?, 1)")
    }

    @Test func toManyIsAnExistsSubquery() throws {
        let condition = try sql("ANY pets.name == %@", "Rex")
        #expect(condition.sql == "EXISTS (SELECT 1 FROM ZPET AS t1 WHERE t1.ZOWNER = t0.Z_PK AND t1.Z_ENT = 3 AND (t1.ZNAME IS ?))")
        let many = try sql("tags.@count > 1")
        #expect(many.sql.contains("FROM Z_1TAGS AS t2, ZTAG AS t1 WHERE t2.Z_1PEOPLE = t0.Z_PK AND t1.Z_PK = t2.Z_4TAGS"))
    }

    @Test func argumentsFollowTextOrder() throws {
        let condition = try sql("3 < SUBQUERY(pets, $p, $p.name == %@).@count AND name == %@", "Rex", "Ann")
        #expect("\(condition.arguments)" == "[3, \"Rex\", \"Ann\"]")
        #expect(condition.sql.hasPrefix("((coalesce(? < (SELECT COUNT(*) FROM ZPET AS t1 WHERE t1.ZOWNER = t0.Z_PK"))
        let world = try SampleWorld.make()
        let predicate = try FormatPredicate(format: "1 < SUBQUERY(pets, $p, $p.name != %@).@count AND name == %@", "Rex", "Ann")
        #expect(try world.sqlMatches(predicate) == world.memoryMatches(predicate))
    }

    @Test func noDuplicateRowsThroughToMany() throws {
        let world = try SampleWorld.make()
        let predicate = try FormatPredicate(format: "pets.weight > 0 OR tags.name != nil")
        let keys = try world.sqlMatches(predicate)
        #expect(keys == Array(Set(keys)).sorted())
        #expect(keys == [1, 2, 4, 5, 6])
    }

    @Test func entityFilterOfSharedTable() throws {
        #expect(try compiler.entityFilter(entity: "Pet") == "t0.Z_ENT = 3")
        #expect(try compiler.entityFilter(entity: "Person") == nil)
        let statement = try compiler.selectStatement(entity: "Pet", columns: "t0.Z_PK", predicate: FormatPredicate(format: "name BEGINSWITH 'B'"))
        let world = try SampleWorld.make()
        let keys = try world.database.read { db in try Int64.fetchAll(db, sql: statement.sql, arguments: statement.arguments) }
        #expect(keys == [5])  // Bub, not the toys Ball and Bear
    }

    @Test(arguments: [
        ("nosuch == 1", PredicateSQLError.Code.unknownKey),
        ("name.foo == 1", .unsupported),
        ("name == $X", .unboundVariable),
        ("name MATCHES '('", .invalidRegularExpression),
        ("name == pets.name", .unsupported),
        ("SUBQUERY(pets, $p, TRUEPREDICATE).@sum > 1", .unsupported),
    ])
    func typedErrors(_ format: String, _ code: PredicateSQLError.Code) throws {
        let predicate = try FormatPredicate(format: format)
        do {
            _ = try compiler.whereClause(for: predicate, entity: "Person")
            Issue.record("compiled")
        } catch {
            #expect(error.code == code, "\(error)")
        }
        #expect(throws: PredicateSQLError.self) { try compiler.whereClause(for: predicate, entity: "Nobody") }
    }

    @Test func orderingTerms() throws {
        let terms = try compiler.orderingTerms(for: [
            StoreSortDescriptor(keyPath: "name", comparison: .localizedStandardCompare),
            StoreSortDescriptor(keyPath: "dept.name", ascending: false),
        ], entity: "Person")
        #expect(terms.sql == "t0.ZNAME COLLATE PF_LOCALIZED_STANDARD ASC, (SELECT t1001.ZNAME FROM ZDEPT AS t1001 WHERE t1001.Z_PK = t0.ZDEPT) DESC")
        #expect(throws: PredicateSQLError.self) {
            try compiler.orderingTerms(for: [StoreSortDescriptor(keyPath: "pets.name")], entity: "Person")
        }
    }
}
