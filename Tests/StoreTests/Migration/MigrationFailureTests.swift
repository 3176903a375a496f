import Foundation
import Store
import TestSupport
import Testing

/// Migrations that cannot be made: a typed error, and the store exactly as it was.
@Suite struct MigrationFailureTests {
    /// Runs `body` on a copy of `store` and checks it threw `code` and left every byte (and no sidecar) in place.
    func expectUnchanged(_ store: String, code: StoreMigrationError.Code,
                         sourceLocation: SourceLocation = #_sourceLocation,
                         _ body: (String) throws(StoreMigrationError) -> Void) throws -> StoreMigrationError? {
        let directory = try TemporaryDirectory("migration-failure")
        let path = try MigrationFixtures.copy(store, into: directory)
        let before = try MigrationFixtures.files(in: directory)
        var caught: StoreMigrationError?
        do {
            try body(path)
        } catch {
            caught = error
        }
        #expect(caught?.code == code, "\(String(describing: caught))", sourceLocation: sourceLocation)
        #expect(caught?.path == path, sourceLocation: sourceLocation)
        #expect(try MigrationFixtures.files(in: directory) == before, sourceLocation: sourceLocation)
        return caught
    }

    @Test func anAttributeTypeChangeIsNotLightweight() throws {
        let v1 = try MigrationFixtures.model(MigrationFixtures.migrationTests[0])
        var changed = v1
        changed.entities[0].attributes[0].type = .integer64
        let error = try expectUnchanged(MigrationFixtures.migrationTestStores[0], code: .notLightweight) { path throws(StoreMigrationError) in
            _ = try StoreMigrator.migrate(storeAtPath: path, from: v1, to: changed)
        }
        #expect(error?.planError?.code == .attributeTypeChanged)
        #expect(error?.entity == "BasicEntity" && error?.property == "v1_0_0_name")
    }

    @Test func aRequiredToOneAddedToExistingPostsFailsTheCheck() throws {
        // Version 3 adds Color and a required Post.color: the project fills it with a mapping model of its own.
        let models = try MigrationFixtures.example.map(MigrationFixtures.model)
        let error = try expectUnchanged("CoreDataMigration-Example__CoreDataMigration_Example_2.sqlite", code: .checkFailed) {
            path throws(StoreMigrationError) in
            _ = try StoreMigrator.migrate(storeAtPath: path, through: models)
        }
        #expect(error?.entity == "Post" && error?.property == "color")
        #expect(error?.message.hasPrefix("5979 objects") == true)
        #expect(error?.sql?.contains("FROM ZPOST") == true)
        // The chain from version 1 fails at the same step, after its first one ran, and rolls both back.
        _ = try expectUnchanged("CoreDataMigration-Example__CoreDataMigration_Example_1.sqlite", code: .checkFailed) {
            path throws(StoreMigrationError) in
            _ = try StoreMigrator.migrate(storeAtPath: path, through: models)
        }
    }

    @Test func aRequiredToManyAddedToExistingPostsFailsTheCheck() throws {
        // Revised version 3 adds Section and a required Post.sections: the project fills it
        // from Post.content with a mapping model of its own.
        let models = try MigrationFixtures.revised.map(MigrationFixtures.model)
        let error = try expectUnchanged("CoreDataMigrationRevised-Example__CoreDataMigration_Example_2.sqlite", code: .checkFailed) {
            path throws(StoreMigrationError) in
            _ = try StoreMigrator.migrate(storeAtPath: path, through: models)
        }
        #expect(error?.entity == "Post" && error?.property == "sections" && error?.message.hasPrefix("10 objects") == true)
    }

    @Test func aRequiredAttributeWithoutDefaultFailsOnNulls() throws {
        let models = try MigrationFixtures.migrationTests.map(MigrationFixtures.model)
        var required = models[0]
        required.entities[0].attributes.append(AttributeDescription(name: "added", type: .string, isOptional: false))
        let error = try expectUnchanged(MigrationFixtures.migrationTestStores[0], code: .checkFailed) { path throws(StoreMigrationError) in
            _ = try StoreMigrator.migrate(storeAtPath: path, from: models[0], to: required)
        }
        #expect(error?.property == "added")
    }

    @Test func aStoreAtNoneOfTheVersionsIsAnUnknownVersion() throws {
        let models = try MigrationFixtures.example.map(MigrationFixtures.model)
        _ = try expectUnchanged(MigrationFixtures.migrationTestStores[2], code: .unknownVersion) { path throws(StoreMigrationError) in
            _ = try StoreMigrator.migrate(storeAtPath: path, through: models)
        }
    }

    @Test func aMissingOrForeignFileIsNotAStore() throws {
        let directory = try TemporaryDirectory("migration-missing")
        let model = try MigrationFixtures.model(MigrationFixtures.migrationTests[0])
        let missing = directory.path("absent.sqlite")
        #expect(throws: StoreMigrationError.self) { try StoreMigrator.migrate(storeAtPath: missing, from: model, to: model) }
        #expect(!FileManager.default.fileExists(atPath: missing))
        try directory.write(Data("not a database at all, just text that is long enough to have a header".utf8), to: "text.sqlite")
        do {
            try StoreMigrator.migrate(storeAtPath: directory.path("text.sqlite"), from: model, to: model)
            Issue.record("a text file migrated")
        } catch {
            #expect(error.code == .notAStore && error.storeError?.code == .notADatabase)
        }
    }
}
