import Foundation
import Store
import Testing

/// What every migrated store must show: it opens with the destination
/// model, every object is there with its mapped values, its metadata
/// records the destination's hashes (and keeps its UUID), and its schema
/// is exactly that of a store created fresh with the destination model.
enum MigratedStoreCheck {
    static func verify(_ path: String, before: Set<ManagedObject>, plan: MigrationPlan, destination: ObjectModel,
                       uuid: String?, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let after = try MigrationFixtures.objects(path, model: destination)
        let expected = MigrationOracle.migrate(before, plan: plan, destination: destination)
        #expect(after.count == expected.count, sourceLocation: sourceLocation)
        let missing = expected.subtracting(after)
        #expect(missing.isEmpty, "\(missing.count) objects differ, e.g. \(String(describing: missing.first))", sourceLocation: sourceLocation)
        try verifyBookkeeping(path, model: destination, uuid: uuid, sourceLocation: sourceLocation)
    }

    static func verifyBookkeeping(_ path: String, model: ObjectModel, uuid: String?,
                                  sourceLocation: SourceLocation = #_sourceLocation) throws {
        let stored = try MigrationFixtures.bookkeeping(path)
        #expect(stored.metadata.versionHashes == model.versionHashes, sourceLocation: sourceLocation)
        #expect(stored.metadata.isCompatible(with: model), sourceLocation: sourceLocation)
        #expect(stored.metadata.versionIdentifiers == model.versionIdentifiers, sourceLocation: sourceLocation)
        #expect(stored.uuid == uuid, sourceLocation: sourceLocation)
        #expect(try MigrationFixtures.schema(ofStore: path) == MigrationFixtures.freshSchema(model), sourceLocation: sourceLocation)
        #expect(!stored.tables.contains { $0.hasPrefix("migrating_") }, sourceLocation: sourceLocation)
        let layout = try StoreLayout(model: model)
        #expect(stored.primaryKeys.filter { $0.entityNumber < 16000 }.map(\.name) == layout.entities.map(\.name), sourceLocation: sourceLocation)
        #expect(stored.primaryKeys.filter { $0.entityNumber < 16000 }.map(\.superNumber) == layout.entities.map(\.superNumber),
                sourceLocation: sourceLocation)
        let cached = try ObjectModel(modelCache: #require(stored.modelCache))
        #expect(cached.versionHashes == model.versionHashes, sourceLocation: sourceLocation)
    }
}
