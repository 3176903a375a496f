import Foundation
import Store
import TestSupport
import Testing

@Suite struct ModelBundleTests {
    /// Lays the flattened fixture files out as the bundle they came from.
    static func bundle(_ prefix: String, in directory: TemporaryDirectory) throws -> String {
        let root = directory.file(prefix + "xcdatamodeld")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for name in ModelFixtures.contentsFiles where name.hasPrefix(prefix + "xcdatamodeld_") {
            let version = name.dropFirst((prefix + "xcdatamodeld_").count).dropLast("_contents".count)
            // The flattened names replaced spaces with underscores; the bundles used "Name 2".
            let folder = root.appendingPathComponent(String(version).replacingOccurrences(of: "_2.", with: " 2.")
                .replacingOccurrences(of: "_3.", with: " 3.").replacingOccurrences(of: "_4.", with: " 4."))
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: ModelFixtures.models.appendingPathComponent(name), to: folder.appendingPathComponent("contents"))
        }
        let current = ModelFixtures.models.appendingPathComponent(prefix + "xcdatamodeld_.xccurrentversion")
        if FileManager.default.fileExists(atPath: current.path) {
            try FileManager.default.copyItem(at: current, to: root.appendingPathComponent(".xccurrentversion"))
        }
        return root.path
    }

    @Test func findsTheVersionAStoreWasWrittenWithAndPlansToTheCurrentOne() throws {
        let directory = try TemporaryDirectory("model-bundle")
        let bundle = try ModelBundle(path: Self.bundle("CoreDataMigration-Example__CoreDataMigration_Example.", in: directory))
        #expect(bundle.orderedVersionNames == ["CoreDataMigration_Example", "CoreDataMigration_Example 2",
                                               "CoreDataMigration_Example 3", "CoreDataMigration_Example 4"])
        #expect(bundle.currentVersionName == "CoreDataMigration_Example 4")
        let expected = ["_1": "CoreDataMigration_Example", "_2": "CoreDataMigration_Example 2",
                        "_3": "CoreDataMigration_Example 3", "_WAL": "CoreDataMigration_Example 4"]
        for (suffix, version) in expected {
            let metadata = try StoreMetadata(propertyList: ModelFixtures.modelRows(of: "CoreDataMigration-Example__CoreDataMigration_Example\(suffix).sqlite").metadata)
            #expect(bundle.versionName(matching: metadata.versionHashes) == version)
            let plans = try MigrationPlan.chain(bundle.models(from: version, to: bundle.currentVersionName))
            #expect(plans.last?.destinationHashes == bundle.currentModel?.versionHashes || plans.isEmpty)
        }
    }

    @Test func versionsWithDotsOrderNumerically() throws {
        let directory = try TemporaryDirectory("model-bundle")
        let bundle = try ModelBundle(path: Self.bundle("CoreDataMigrationTests__Model.", in: directory))
        #expect(bundle.orderedVersionNames == ["v1.0.0", "v1.1.0", "v1.1.2", "v1.2.0", "v2.0.0"])
        #expect(try MigrationPlan.chain(bundle.models(from: "v1.0.0", to: bundle.currentVersionName)).count == 4)
    }

    @Test func compiledBundlesToo() throws {
        let directory = try TemporaryDirectory("model-bundle")
        let root = directory.file("SampleModel.momd")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for name in ["SampleModel.mom", "SampleModel2.mom", "SampleModel3.mom", "VersionInfo.plist"] {
            try FileManager.default.copyItem(at: ModelFixtures.models.appendingPathComponent("CoreDataPlus__SampleModel.momd_" + name),
                                             to: root.appendingPathComponent(name))
        }
        let bundle = try ModelBundle(path: root.path)
        #expect(bundle.orderedVersionNames == ["SampleModel", "SampleModel2", "SampleModel3"])
        #expect(bundle.currentVersionName != nil)
        for (store, version) in [("CoreDataPlus__SampleModel_V1.sqlite", "SampleModel"), ("CoreDataPlus__SampleModel_V2.sqlite", "SampleModel2")] {
            let metadata = try StoreMetadata(propertyList: ModelFixtures.modelRows(of: store).metadata)
            #expect(bundle.versionName(matching: metadata.versionHashes) == version)
        }
    }

    @Test func anEmptyOrMissingBundleIsATypedError() throws {
        let directory = try TemporaryDirectory("model-bundle")
        #expect(throws: ModelError.self) { try ModelBundle(path: directory.path("missing.xcdatamodeld")) }
        #expect(throws: ModelError.self) { try ModelBundle(path: directory.url.path) }
    }
}
