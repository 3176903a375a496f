/// What a lightweight migration does to move a store from one model version
/// to the next, worked out from the two models alone (Core Data's inferred
/// mapping model): which entities, attributes and relationships are kept,
/// renamed (through renaming identifiers), added or removed.
///
/// The plan is a value; it runs no SQL. Whoever executes it checks the
/// ``checks`` against the data (a required attribute added without a
/// default fails only if rows exist) and rewrites what changed.
///
/// ```swift
/// let plan = try MigrationPlan(from: v1, to: v2)
/// for mapping in plan.entityMappings where !mapping.isUnchanged { … }
/// ```
public struct MigrationPlan: Sendable, Hashable {
    /// The source model's version hashes (what the store's metadata should record).
    public var sourceHashes: ModelVersionHashes
    /// The destination model's version hashes (what the metadata records afterwards).
    public var destinationHashes: ModelVersionHashes
    /// One mapping per destination entity, in the destination model's order.
    public var entityMappings: [EntityMapping]
    /// Source entities with no destination: their rows are dropped.
    public var removedEntities: [String]
    /// Conditions on the data that must hold for the migration to succeed.
    public var checks: [MigrationCheck]

    /// Whether the store needs migrating at all: the hashes differ.
    public var needsMigration: Bool { sourceHashes.entities != destinationHashes.entities }

    /// The mapping for a destination entity.
    public func mapping(forEntity name: String) -> EntityMapping? {
        entityMappings.first { $0.destinationEntity == name }
    }

    /// Plans the migration from `source` to `destination`; a change no
    /// lightweight migration can make is a ``ModelMigrationError``.
    public init(from source: ObjectModel, to destination: ObjectModel) throws(ModelMigrationError) {
        sourceHashes = source.versionHashes
        destinationHashes = destination.versionHashes
        var planner = MigrationPlanner(source: source, destination: destination,
                                       sourceHashes: sourceHashes, destinationHashes: destinationHashes)
        entityMappings = try planner.entityMappings()
        let kept = Set(entityMappings.compactMap(\.sourceEntity))
        removedEntities = source.entities.map(\.name).filter { !kept.contains($0) }
        checks = planner.checks
    }

    /// The plans for migrating through each consecutive pair of `models`
    /// (oldest first), as Core Data's progressive migration does: renaming
    /// identifiers name the previous version only, so data survives a
    /// chain of renames only step by step.
    public static func chain(_ models: [ObjectModel]) throws(ModelMigrationError) -> [MigrationPlan] {
        var plans: [MigrationPlan] = []
        for index in models.indices.dropFirst() {
            plans.append(try MigrationPlan(from: models[index - 1], to: models[index]))
        }
        return plans
    }
}
