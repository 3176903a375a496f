import FileSystem
import Foundation
import GRDB
import PropertyList
import Store
import Testing
import TestSupport

@Suite struct StoreCreationTests {
    /// A store we create reads the same in sqlite_master as the one Core
    /// Data made for the same model.
    @Test(arguments: FixtureModels.byStore.map(\.store))
    func aCreatedStoreHasTheFixturesSchema(store: String) throws {
        let model = try #require(FixtureModels.byStore.first { $0.store == store }?.model)
        let directory = try TemporaryDirectory("store-create")
        let path = directory.path("created.sqlite")
        let created = try PersistentStore.create(atPath: path, model: model)
        let ours = try FixtureSchema.entries(path, immutable: false).filter { $0.type != "trigger" }
        let theirs = try FixtureSchema.modelEntries(FixtureModels.store(store))
        #expect(ours.filter { $0.type == "table" }.map(\.sql) == theirs.filter { $0.type == "table" }.map(\.sql))
        #expect(Set(ours.map(\.sql)) == Set(theirs.map(\.sql)))
        let rows = try created.primaryKeyRows()
        let fixtureRows = try PersistentStore.openReadOnly(atPath: FixtureModels.store(store), model: model).primaryKeyRows()
        #expect(rows.map(\.name) == fixtureRows.filter { $0.entityNumber < 16000 }.map(\.name))
        #expect(rows.map(\.superNumber) == fixtureRows.filter { $0.entityNumber < 16000 }.map(\.superNumber))
        let metadata = try #require(try created.metadataPropertyList())
        let plist = try PropertyListValue.decode(metadata).value
        #expect(plist.dictionaryValue?["NSStoreType"]?.stringValue == "SQLite")
    }

    @Test func creatingOverAnExistingFileIsATypedError() throws {
        let directory = try TemporaryDirectory("store-create-twice")
        let path = directory.path("twice.sqlite")
        _ = try PersistentStore.create(atPath: path, model: FixtureModels.authorsAndBooks)
        #expect(throws: StoreError.self) { try PersistentStore.create(atPath: path, model: FixtureModels.authorsAndBooks) }
    }
}
