import Foundation
import GRDB
import PredicateFormat
import Store
import TestSupport
import Testing

/// Copies of the fixture stores in a temporary directory, the fixtures'
/// model versions, and what a test compares before and after a migration.
/// The shared fixtures are only ever read (copied), never opened.
enum MigrationFixtures {
    static func model(_ file: String) throws -> ObjectModel {
        try ObjectModel(contentsFile: modelPath(file))
    }

    static func modelPath(_ file: String) -> String { ModelFixtures.modelPath(file + ".xcdatamodel_contents") }

    static let migrationTests = ["v1.0.0", "v1.1.0", "v1.1.2", "v1.2.0", "v2.0.0"].map { "CoreDataMigrationTests__Model.xcdatamodeld_\($0)" }
    static let migrationTestStores = ["v1.0.0", "v1.1.0", "v1.1.2", "v1.2.0", "v2.0.0"].map { "CoreDataMigrationTests__Example_\($0).sqlite" }
    static let example = ["", "_2", "_3", "_4"].map {
        "CoreDataMigration-Example__CoreDataMigration_Example.xcdatamodeld_CoreDataMigration_Example\($0)"
    }
    static let revised = ["", "_2", "_3", "_4"].map {
        "CoreDataMigrationRevised-Example__CoreDataMigration_Example.xcdatamodeld_CoreDataMigration_Example\($0)"
    }
    static let sampleModel = ["SampleModel", "SampleModel2"].map { "CoreDataPlus__SampleModel.xcdatamodeld_\($0)" }

    /// Copies a fixture store (and its `-wal`) into `directory`; returns the copy's path.
    static func copy(_ store: String, into directory: TemporaryDirectory, as name: String? = nil) throws -> String {
        let target = directory.path(name ?? store)
        for suffix in ["", "-wal"] {
            let source = ModelFixtures.stores.appendingPathComponent(store + suffix)
            guard FileManager.default.fileExists(atPath: source.path) else { continue }
            try FileManager.default.copyItem(atPath: source.path, toPath: target + suffix)
        }
        return target
    }

    struct SchemaEntry: Hashable, CustomStringConvertible {
        var type: String
        var name: String
        var sql: String
        var description: String { sql }
    }

    static func schema(_ db: Database) throws -> Set<SchemaEntry> {
        Set(try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL").map {
            SchemaEntry(type: $0[0], name: $0[1], sql: $0[2])
        })
    }

    /// The `sqlite_master` of a store (a copy in a temporary directory).
    static func schema(ofStore path: String) throws -> Set<SchemaEntry> {
        try reading(path) { try schema($0) }
    }

    /// The `sqlite_master` a store created fresh with `model` has.
    static func freshSchema(_ model: ObjectModel) throws -> Set<SchemaEntry> {
        let queue = try DatabaseQueue()
        let layout = try StoreLayout(model: model)
        return try queue.write { db in
            for statement in layout.schemaStatements { try db.execute(sql: statement) }
            return try schema(db)
        }
    }

    static func reading<T>(_ path: String, _ body: (Database) throws -> T) throws -> T {
        // Read-write, so a WAL-mode copy needs no existing -shm; only copies are ever opened.
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read(body)
    }

    /// The metadata, `Z_UUID`, `Z_PRIMARYKEY` and table names of a store copy.
    struct Bookkeeping {
        var metadata: StoreMetadata
        var uuid: String?
        var primaryKeys: [PrimaryKeyRow]
        var tables: [String]
        var modelCache: Data?
    }

    static func bookkeeping(_ path: String) throws -> Bookkeeping {
        try reading(path) { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA"))
            return Bookkeeping(
                metadata: try StoreMetadata(propertyList: row[1]),
                uuid: row[0],
                primaryKeys: try PrimaryKeyRow.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT"),
                tables: try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"),
                modelCache: try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE"))
        }
    }

    /// Every object of the store, read through `model`.
    static func objects(_ path: String, model: ObjectModel) throws -> Set<ManagedObject> {
        let store = try PersistentStore.openReadOnly(atPath: path, model: model)
        var all: Set<ManagedObject> = []
        for entity in model.entities where entity.superentityName == nil {
            all.formUnion(try store.objects(of: entity.name))
        }
        return all
    }

    /// The files of a directory with their bytes, to show a store was left exactly as it was.
    static func files(in directory: TemporaryDirectory) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.url.path) {
            result[name] = try Data(contentsOf: directory.file(name))
        }
        return result
    }
}
