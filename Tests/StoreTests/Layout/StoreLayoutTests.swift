import Foundation
import Store
import Testing

@Suite struct StoreLayoutTests {
    @Test func entityNumbersFollowRootsByNameThenSubentitiesDepthFirst() throws {
        let layout = try StoreLayout(model: FixtureModels.sampleModel)
        #expect(layout.entities.map(\.name) == ["Car", "SportCar", "ExpensiveSportCar", "Person"])
        #expect(layout.entities.map(\.number) == [1, 2, 3, 4])
        #expect(layout.entities.map(\.superNumber) == [0, 1, 2, 0])
        #expect(layout.entity(named: "SportCar")?.entityNumbers == [2, 3])
        #expect(layout.entity(named: "ExpensiveSportCar")?.tableName == "ZCAR")
    }

    @Test func columnsAreOrderedAsCoreDataOrdersThem() throws {
        let layout = try StoreLayout(model: FixtureModels.sampleModel)
        #expect(layout.table(named: "ZCAR")?.createStatement
            == "CREATE TABLE ZCAR ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZOWNER INTEGER, "
            + "ZISLIMITEDEDITION INTEGER, ZMARKEDFORDELETIONASOF TIMESTAMP, ZMAKER VARCHAR, ZMODEL VARCHAR, "
            + "ZNUMBERPLATE VARCHAR, ZCOLOR BLOB )")
    }

    @Test func manyToManyUsesAJoinTableNamedForTheFirstEntity() throws {
        let layout = try StoreLayout(model: FixtureModels.authorsAndBooks)
        #expect(layout.table(named: "Z_1BOOKS")?.createStatement
            == "CREATE TABLE Z_1BOOKS ( Z_1AUTHORS INTEGER, Z_2BOOKS INTEGER, PRIMARY KEY (Z_1AUTHORS, Z_2BOOKS) )")
        #expect(layout.entity(named: "Author")?.relationships["books"]
            == .joinTable(table: "Z_1BOOKS", sourceColumn: "Z_1AUTHORS", destinationColumn: "Z_2BOOKS", orderColumn: nil))
        #expect(layout.entity(named: "Book")?.relationships["authors"]
            == .joinTable(table: "Z_1BOOKS", sourceColumn: "Z_2BOOKS", destinationColumn: "Z_1AUTHORS", orderColumn: nil))
    }

    @Test func polymorphicForeignKeysAndSiblingCollisions() throws {
        let model = ObjectModel(entities: [
            EntityDescription(name: "Book", relationships: [
                RelationshipDescription(name: "pages", destinationEntityName: "Page", inverseName: "book",
                                        isToMany: true, isOrdered: true),
            ]),
            EntityDescription(name: "Comic", superentityName: "Book", attributes: [AttributeDescription(name: "name", type: .string)]),
            EntityDescription(name: "Novel", superentityName: "Book", attributes: [AttributeDescription(name: "name", type: .integer32)]),
            EntityDescription(name: "Page", relationships: [
                RelationshipDescription(name: "book", destinationEntityName: "Book", inverseName: "pages"),
            ]),
        ])
        let layout = try StoreLayout(model: model)
        #expect(layout.table(named: "ZPAGE")?.columns.map(\.name) == ["Z_PK", "Z_ENT", "Z_OPT", "ZBOOK", "Z1_BOOK", "Z_FOK_BOOK"])
        #expect(layout.entity(named: "Comic")?.attributes["name"]?.column == "ZNAME")
        #expect(layout.entity(named: "Novel")?.attributes["name"]?.column == "ZNAME1")
        #expect(layout.entity(named: "Book")?.relationships["pages"]
            == .inverseForeignKey(table: "ZPAGE", column: "ZBOOK", orderColumn: "Z_FOK_BOOK"))
    }

    @Test func aModelWithAMissingDestinationIsATypedError() {
        let model = ObjectModel(entities: [
            EntityDescription(name: "A", relationships: [RelationshipDescription(name: "b", destinationEntityName: "B")]),
        ])
        #expect(throws: StoreError.self) { try StoreLayout(model: model) }
        do {
            _ = try StoreLayout(model: model)
        } catch {
            #expect(error.code == .invalidModel)
            #expect(error.entity == "A")
        }
    }

    /// The derived schema is the fixture's, statement for statement.
    @Test(arguments: FixtureModels.byStore.map(\.store))
    func layoutMatchesTheFixturesSchema(store: String) throws {
        let model = try #require(FixtureModels.byStore.first { $0.store == store }?.model)
        let layout = try StoreLayout(model: model)
        let fixture = try FixtureSchema.modelEntries(FixtureModels.store(store))
        let fixtureTables = fixture.filter { $0.type == "table" }.map(\.sql)
        let ourTables = layout.tables.map(\.createStatement) + StoreLayout.bookkeepingStatements
        #expect(Set(ourTables) == Set(fixtureTables))
        #expect(Set(layout.indexes.map(\.createStatement)) == Set(fixture.filter { $0.type == "index" }.map(\.sql)))
    }
}
