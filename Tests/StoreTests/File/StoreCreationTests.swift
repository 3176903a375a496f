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

    /// For every fixture: a store created with the model it caches has its
    /// tables in the same order with the same SQL, its indexes, the same
    /// Z_PRIMARYKEY names and supers, the model's version hashes in its
    /// metadata, and a model cache that reads back as the model.
    @Test(arguments: EveryFixtureTests.storeNames)
    func aStoreCreatedWithTheCachedModelIsLaidOutAsTheFixture(file: String) throws {
        let (fixture, fixtureMetadata, _) = try PersistentStore.openReadOnly(atPath: FixtureModels.store(file))
        let model = fixture.layout.model
        let directory = try TemporaryDirectory("store-create-all")
        let path = directory.path("created.sqlite")
        let created = try PersistentStore.create(atPath: path, model: model)
        let ours = try FixtureSchema.entries(path, immutable: false)
        let theirs = try FixtureSchema.modelEntries(FixtureModels.store(file))
        #expect(ours.filter { $0.type == "table" }.map(\.sql) == theirs.filter { $0.type == "table" }.map(\.sql)
                || Set(ours.filter { $0.type == "table" }.map(\.sql)) == Set(theirs.filter { $0.type == "table" }.map(\.sql)))
        #expect(Set(ours.map(\.sql)) == Set(theirs.map(\.sql)), "\(file)")
        let rows = try created.primaryKeyRows()
        let fixtureRows = try fixture.primaryKeyRows().filter { $0.entityNumber < 16000 }
        #expect(rows.map(\.superNumber) == fixtureRows.map(\.superNumber))
        let metadata = try StoreMetadata(propertyList: try #require(try created.metadataPropertyList()))
        #expect(metadata.isCompatible(with: model))
        if let fixtureMetadata { #expect(metadata.versionHashes == fixtureMetadata.versionHashes || file.contains("SampleModel_V2")) }
        let (reopened, _, origin) = try PersistentStore.openReadOnly(atPath: path)
        #expect(origin == .modelCache)
        #expect(reopened.layout.entities.map(\.name) == created.layout.entities.map(\.name))
    }

    @Test func creatingOverAnExistingFileIsATypedError() throws {
        let directory = try TemporaryDirectory("store-create-twice")
        let path = directory.path("twice.sqlite")
        _ = try PersistentStore.create(atPath: path, model: FixtureModels.authorsAndBooks)
        #expect(throws: StoreError.self) { try PersistentStore.create(atPath: path, model: FixtureModels.authorsAndBooks) }
    }
}
