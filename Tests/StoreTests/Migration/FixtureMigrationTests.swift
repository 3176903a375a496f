import Foundation
import Store
import TestSupport
import Testing

/// Lightweight migrations run on copies of the Core Data fixtures.
@Suite struct FixtureMigrationTests {
    /// Migrates `path` through `models` one step at a time, checking every step.
    func migrateStepByStep(_ path: String, models: [ObjectModel], fixtures: [String?] = [],
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
        let uuid = try MigrationFixtures.bookkeeping(path).uuid
        for index in models.indices.dropFirst() {
            let before = try MigrationFixtures.objects(path, model: models[index - 1])
            let plan = try MigrationPlan(from: models[index - 1], to: models[index])
            let report = try StoreMigrator.migrate(storeAtPath: path, from: models[index - 1], to: models[index])
            #expect(report.didMigrate && report.steps.count == 1, sourceLocation: sourceLocation)
            try MigratedStoreCheck.verify(path, before: before, plan: plan, destination: models[index], uuid: uuid,
                                      sourceLocation: sourceLocation)
            // Core Data's own store of that version, where the fixtures have one.
            if index < fixtures.count, let fixture = fixtures[index] {
                let directory = try TemporaryDirectory("migration-fixture")
                let original = try MigrationFixtures.copy(fixture, into: directory)
                #expect(try MigrationFixtures.schema(ofStore: path) == MigrationFixtures.schema(ofStore: original),
                        sourceLocation: sourceLocation)
            }
        }
    }

    @Test func fiveVersionsOfCoreDataMigrationTests() throws {
        let models = try MigrationFixtures.migrationTests.map(MigrationFixtures.model)
        let directory = try TemporaryDirectory("migration")
        let path = try MigrationFixtures.copy(MigrationFixtures.migrationTestStores[0], into: directory)
        let name = try #require(try MigrationFixtures.objects(path, model: models[0]).first?.values["v1_0_0_name"])
        #expect(name != .null)
        try migrateStepByStep(path, models: models, fixtures: MigrationFixtures.migrationTestStores)
        // The value followed its attribute through four renames.
        let final = try MigrationFixtures.objects(path, model: models[4])
        #expect(final.map { $0.values["v2_0_0_name"] } == [name])

        // At the destination already: nothing is written.
        let bytes = try MigrationFixtures.files(in: directory)
        let again = try StoreMigrator.migrate(storeAtPath: path, from: models[3], to: models[4])
        #expect(!again.didMigrate && again.sourceVersion == 1)
        #expect(try StoreMigrator.migrate(storeAtPath: path, through: models).didMigrate == false)
        #expect(try MigrationFixtures.files(in: directory) == bytes)
    }

    @Test func everyVersionMigratesToTheLastInOneTransaction() throws {
        let models = try MigrationFixtures.migrationTests.map(MigrationFixtures.model)
        for (version, store) in MigrationFixtures.migrationTestStores.enumerated() {
            let directory = try TemporaryDirectory("migration-chain")
            let path = try MigrationFixtures.copy(store, into: directory)
            let uuid = try MigrationFixtures.bookkeeping(path).uuid
            var objects = try MigrationFixtures.objects(path, model: models[version])
            var expected = objects
            for index in models.indices.dropFirst().filter({ $0 > version }) {
                expected = MigrationOracle.migrate(expected, plan: try MigrationPlan(from: models[index - 1], to: models[index]),
                                                   destination: models[index])
            }
            let report = try StoreMigrator.migrate(storeAtPath: path, through: models)
            #expect(report.sourceVersion == version && report.steps.count == 4 - version)
            objects = try MigrationFixtures.objects(path, model: models[4])
            #expect(objects == expected)
            try MigratedStoreCheck.verifyBookkeeping(path, model: models[4], uuid: uuid)
        }
    }

    @Test func expensiveSportCarBecomesLuxuryCarAsInCoreDatasOwnMigratedStore() throws {
        let models = try MigrationFixtures.sampleModel.map(MigrationFixtures.model)
        let directory = try TemporaryDirectory("migration-sample")
        let path = try MigrationFixtures.copy("CoreDataPlus__SampleModel_V1.sqlite", into: directory)
        let before = try MigrationFixtures.objects(path, model: models[0])
        #expect(before.count == 145)
        try migrateStepByStep(path, models: models)
        let after = try MigrationFixtures.objects(path, model: models[1])
        #expect(after.filter { $0.objectID.entityName == "LuxuryCar" }.count == 5)
        #expect(before.filter { $0.objectID.entityName == "ExpensiveSportCar" }.map(\.objectID.primaryKey).sorted()
                == after.filter { $0.objectID.entityName == "LuxuryCar" }.map(\.objectID.primaryKey).sorted())
        // Core Data migrated the same data to SampleModel2: the same objects, values and links.
        let coreData = try MigrationFixtures.copy("CoreDataPlus__SampleModel_V2.sqlite", into: directory, as: "coredata.sqlite")
        #expect(try MigrationFixtures.objects(coreData, model: models[1]) == after)
        // And the same schema, the fetch index SampleModel2 declares included.
        #expect(try MigrationFixtures.schema(ofStore: path) == MigrationFixtures.schema(ofStore: coreData))
    }

    @Test func migrationExampleOneToTwoThenThreeToFour() throws {
        let models = try MigrationFixtures.example.map(MigrationFixtures.model)
        let directory = try TemporaryDirectory("migration-example")
        let path = try MigrationFixtures.copy("CoreDataMigration-Example__CoreDataMigration_Example_1.sqlite", into: directory)
        try migrateStepByStep(path, models: Array(models[0...1]),
                              fixtures: [nil, "CoreDataMigration-Example__CoreDataMigration_Example_2.sqlite"])
        #expect(try MigrationFixtures.objects(path, model: models[1]).count == 1001)

        // 3 → 4 on the fixture of version 3: 7,995 Posts, each with its Color.
        let three = try MigrationFixtures.copy("CoreDataMigration-Example__CoreDataMigration_Example_3.sqlite", into: directory)
        try migrateStepByStep(three, models: Array(models[2...3]))
        let posts = try PersistentStore.openReadOnly(atPath: three, model: models[3]).objects(of: "Post")
        #expect(posts.count == 7995)
        #expect(posts.allSatisfy { $0.values["hide"] == .bool(false) && $0.toOne["color"] != nil })
    }

    @Test func revisedExampleOneToTwoThenThreeToFour() throws {
        // 2 → 3 (a required Post.sections) is not lightweight: see MigrationFailureTests.
        let models = try MigrationFixtures.revised.map(MigrationFixtures.model)
        let directory = try TemporaryDirectory("migration-revised")
        let path = try MigrationFixtures.copy("CoreDataMigrationRevised-Example__CoreDataMigration_Example_1.sqlite", into: directory)
        let colors = try MigrationFixtures.objects(path, model: models[0]).map { "\($0.objectID.primaryKey) \($0["color"])" }
        try migrateStepByStep(path, models: Array(models[0...1]),
                              fixtures: [nil, "CoreDataMigrationRevised-Example__CoreDataMigration_Example_2.sqlite"])
        // The renaming identifier carried color into hexColor.
        let posts = try MigrationFixtures.objects(path, model: models[1])
        #expect(posts.count == 10 && Set(posts.map { "\($0.objectID.primaryKey) \($0["hexColor"])" }) == Set(colors))
        // Core Data's own store of version 2 holds the same ten Posts, migrated by Core Data.
        let coreData = try MigrationFixtures.copy("CoreDataMigrationRevised-Example__CoreDataMigration_Example_2.sqlite", into: directory,
                                                  as: "coredata.sqlite")
        #expect(try MigrationFixtures.objects(coreData, model: models[1]) == posts)

        // 3 → 4 on Core Data's store of version 3: sections keep their posts.
        let three = try MigrationFixtures.copy("CoreDataMigrationRevised-Example__CoreDataMigration_Example_3.sqlite", into: directory)
        let store3 = try PersistentStore.openReadOnly(atPath: three, model: models[2])
        let links3 = try store3.objects(of: "Post").map { try store3.destinations(of: $0.objectID, relationship: "sections") }
        try migrateStepByStep(three, models: Array(models[2...3]))
        let store4 = try PersistentStore.openReadOnly(atPath: three, model: models[3])
        let posts4 = try store4.objects(of: "Post")
        let links4 = try posts4.map { try store4.destinations(of: $0.objectID, relationship: "sections") }
        #expect(links4 == links3 && links4.joined().count == 14)
        #expect(posts4.count == 12 && posts4.allSatisfy { $0["softDeleted"] == .bool(false) })
    }

    /// SampleModel2's store has persistent history tables and derived-attribute
    /// triggers (Book.pagesCount, kept by triggers on ZPAGE and ZBOOK).
    @Test func historyTablesStayAndTriggersOfUnchangedTablesAreKept() throws {
        let store = "CoreDataPlus__SampleModel2_V1.sqlite"
        let model = try ObjectModel(modelCache: #require(ModelFixtures.modelRows(of: store).modelCache))
        let directory = try TemporaryDirectory("migration-history")
        func addAttribute(to entity: String) throws -> ObjectModel {
            var changed = model
            let index = try #require(changed.entities.firstIndex { $0.name == entity })
            changed.entities[index].attributes.append(AttributeDescription(name: "nickname", type: .string, defaultValue: "none"))
            return changed
        }
        for (entity, table, keepsTriggers) in [("Writer", "ZWRITER", true), ("Book", "ZBOOK", false)] {
            let path = try MigrationFixtures.copy(store, into: directory, as: "\(entity).sqlite")
            let destination = try addAttribute(to: entity)
            let before = try MigrationFixtures.objects(path, model: model)
            let schemaBefore = try MigrationFixtures.schema(ofStore: path)
            let history = try MigrationFixtures.reading(path) { try Int.fetchOne($0, sql: "SELECT count(*) FROM ACHANGE") }
            let report = try StoreMigrator.migrate(storeAtPath: path, from: model, to: destination)
            let triggers = schemaBefore.filter { $0.type == "trigger" }
            #expect(triggers.count == 5)
            #expect(Set(report.steps[0].droppedTriggers) == (keepsTriggers ? [] : Set(triggers.map(\.name))))

            let expected = MigrationOracle.migrate(before, plan: try MigrationPlan(from: model, to: destination), destination: destination)
            #expect(try MigrationFixtures.objects(path, model: destination) == expected)
            // Only the changed table (and, without their table, the triggers) differ; history is untouched.
            let schemaAfter = try MigrationFixtures.schema(ofStore: path)
            let fresh = try MigrationFixtures.freshSchema(destination)
            let changed = { (entry: MigrationFixtures.SchemaEntry) in
                entry.name == table || (!keepsTriggers && entry.type == "trigger")
            }
            #expect(schemaAfter.filter { !changed($0) } == schemaBefore.filter { !changed($0) })
            #expect(schemaAfter.filter { $0.name == table } == fresh.filter { $0.name == table })
            #expect(try MigrationFixtures.reading(path) { try Int.fetchOne($0, sql: "SELECT count(*) FROM ACHANGE") } == history)
            let keys = try MigrationFixtures.bookkeeping(path).primaryKeys
            #expect(keys.filter { $0.entityNumber > 16000 }.map(\.name) == ["CHANGE", "TRANSACTION", "TRANSACTIONSTRING"])
            #expect(try MigrationFixtures.bookkeeping(path).metadata.versionHashes == destination.versionHashes)
        }
    }

    /// CoreDataMigration-Example's WAL store keeps all its rows in its `-wal`.
    @Test func aStoreWhoseRowsAreInItsWriteAheadLog() throws {
        let v4 = try MigrationFixtures.model(MigrationFixtures.example[3])
        let directory = try TemporaryDirectory("migration-wal")
        let path = try MigrationFixtures.copy("CoreDataMigration-Example__CoreDataMigration_Example_WAL.sqlite", into: directory)
        // Already at version 4: not even opened for writing, so the log is not checkpointed.
        let bytes = try MigrationFixtures.files(in: directory)
        #expect(bytes.keys.contains { $0.hasSuffix("-wal") })
        let models = try MigrationFixtures.example.map(MigrationFixtures.model)
        #expect(try StoreMigrator.migrate(storeAtPath: path, through: models).didMigrate == false)
        #expect(try MigrationFixtures.files(in: directory) == bytes)

        var v5 = v4
        let post = try #require(v5.entities.firstIndex { $0.name == "Post" })
        v5.entities[post].attributes.append(AttributeDescription(name: "likes", type: .integer32, defaultValue: "0"))
        let before = try MigrationFixtures.objects(path, model: v4)
        #expect(before.count == 168)
        // (Read from another copy: reading this one through SQLite would checkpoint its log first.)
        let uuid = try MigrationFixtures.bookkeeping(
            MigrationFixtures.copy("CoreDataMigration-Example__CoreDataMigration_Example_WAL.sqlite", into: directory, as: "uuid.sqlite")).uuid
        try StoreMigrator.migrate(storeAtPath: path, from: v4, to: v5)
        try MigratedStoreCheck.verify(path, before: before, plan: MigrationPlan(from: v4, to: v5), destination: v5,
                                  uuid: uuid)
        #expect(try PersistentStore.openReadOnly(atPath: path, model: v5).objects(of: "Post").allSatisfy { $0["likes"] == .integer(0) })
    }
}
