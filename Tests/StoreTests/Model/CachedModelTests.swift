import Foundation
import Store
import Testing

@Suite struct CachedModelTests {
    @Test func everyStoresCachedModelLoads() throws {
        let before = try ModelFixtures.snapshot()
        #expect(ModelFixtures.storeFiles.count == 18)
        for store in ModelFixtures.storeFiles {
            let rows = try ModelFixtures.modelRows(of: store)
            let cache = try #require(rows.modelCache, "\(store) has no Z_MODELCACHE")
            let model = try ObjectModel(modelCache: cache)
            #expect(!model.entities.isEmpty, "\(store)")
        }
        #expect(try ModelFixtures.snapshot() == before)
    }

    @Test func everyCompiledModelLoads() throws {
        #expect(ModelFixtures.compiledModels.count == 6)
        for name in ModelFixtures.compiledModels {
            let model = try ObjectModel(compiledModelFile: ModelFixtures.modelPath(name))
            #expect(!model.entities.isEmpty, "\(name)")
        }
    }

    /// Stores and the contents file of the model version that wrote them.
    static let pairs: [(store: String, contents: String)] = [
        ("CoreDataMigration-Example__CoreDataMigration_Example_1.sqlite", "CoreDataMigration-Example__CoreDataMigration_Example.xcdatamodeld_CoreDataMigration_Example.xcdatamodel_contents"),
        ("CoreDataMigration-Example__CoreDataMigration_Example_2.sqlite", "CoreDataMigration-Example__CoreDataMigration_Example.xcdatamodeld_CoreDataMigration_Example_2.xcdatamodel_contents"),
        ("CoreDataMigration-Example__CoreDataMigration_Example_3.sqlite", "CoreDataMigration-Example__CoreDataMigration_Example.xcdatamodeld_CoreDataMigration_Example_3.xcdatamodel_contents"),
        ("CoreDataMigration-Example__CoreDataMigration_Example_WAL.sqlite", "CoreDataMigration-Example__CoreDataMigration_Example.xcdatamodeld_CoreDataMigration_Example_4.xcdatamodel_contents"),
        ("CoreDataMigrationRevised-Example__CoreDataMigration_Example_1.sqlite", "CoreDataMigrationRevised-Example__CoreDataMigration_Example.xcdatamodeld_CoreDataMigration_Example.xcdatamodel_contents"),
        ("CoreDataMigrationRevised-Example__CoreDataMigration_Example_2.sqlite", "CoreDataMigrationRevised-Example__CoreDataMigration_Example.xcdatamodeld_CoreDataMigration_Example_2.xcdatamodel_contents"),
        ("CoreDataMigrationRevised-Example__CoreDataMigration_Example_3.sqlite", "CoreDataMigrationRevised-Example__CoreDataMigration_Example.xcdatamodeld_CoreDataMigration_Example_3.xcdatamodel_contents"),
        ("CoreDataMigrationTests__Example_v1.0.0.sqlite", "CoreDataMigrationTests__Model.xcdatamodeld_v1.0.0.xcdatamodel_contents"),
        ("CoreDataMigrationTests__Example_v1.1.0.sqlite", "CoreDataMigrationTests__Model.xcdatamodeld_v1.1.0.xcdatamodel_contents"),
        ("CoreDataMigrationTests__Example_v1.1.2.sqlite", "CoreDataMigrationTests__Model.xcdatamodeld_v1.1.2.xcdatamodel_contents"),
        ("CoreDataMigrationTests__Example_v1.2.0.sqlite", "CoreDataMigrationTests__Model.xcdatamodeld_v1.2.0.xcdatamodel_contents"),
        ("CoreDataMigrationTests__Example_v2.0.0.sqlite", "CoreDataMigrationTests__Model.xcdatamodeld_v2.0.0.xcdatamodel_contents"),
        ("CoreDataPlus__SampleModel_V1.sqlite", "CoreDataPlus__SampleModel.xcdatamodeld_SampleModel.xcdatamodel_contents"),
        ("CoreDataPlus__SampleModel_V2.sqlite", "CoreDataPlus__SampleModel.xcdatamodeld_SampleModel2.xcdatamodel_contents"),
        ("CoreDataPlus__SampleModel3_V1.sqlite", "CoreDataPlus__SampleModel3.xcdatamodeld_SampleModel3.xcdatamodel_contents"),
        ("CoreDataStack__TestModel.sqlite", "CoreDataStack__Sample.xcdatamodeld_TestModel.xcdatamodel_contents"),
    ]

    /// A comparable outline: entity, parent, then each stored property's name, type and shape.
    static func outline(_ model: ObjectModel) -> [String] {
        model.entities.sorted { $0.name < $1.name }.flatMap { entity in
            ["\(entity.name) < \(entity.superentityName ?? "-") abstract=\(entity.isAbstract) unique=\(entity.uniquenessConstraints) indexes=\(entity.fetchIndexes)"]
                + entity.attributes.sorted { $0.name < $1.name }.map {
                    "  \($0.name): \($0.type) optional=\($0.isOptional) transient=\($0.isTransient) renamed=\($0.renamingIdentifier ?? "-")"
                }
                + entity.relationships.sorted { $0.name < $1.name }.map {
                    "  \($0.name) -> \($0.destinationEntityName) inverse=\($0.inverseName ?? "-") \($0.minCount)…\($0.maxCount) ordered=\($0.isOrdered) optional=\($0.isOptional) \($0.deleteRule)"
                }
        }
    }

    @Test(arguments: pairs.map(\.store))
    func cachedModelMatchesItsContentsFile(store: String) throws {
        let contents = try #require(Self.pairs.first { $0.store == store }?.contents)
        let fromFile = try ObjectModel(contentsFile: ModelFixtures.modelPath(contents))
        let rows = try ModelFixtures.modelRows(of: store)
        let cached = try ObjectModel(modelCache: try #require(rows.modelCache))
        #expect(Self.outline(cached) == Self.outline(fromFile))
    }
}
