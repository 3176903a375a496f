import FileSystem
import Foundation
import GRDB

/// Migrates a store file from one model version to the next, in place, as
/// Core Data's lightweight (inferred) migration does.
///
/// The whole migration — every step of a chain — is one exclusive SQLite
/// transaction: the data is checked first, the old tables are set aside,
/// the destination's tables and indexes are created, every kept row is
/// copied (`Z_PK` and `Z_OPT` kept, `Z_ENT` renumbered, renamed
/// attributes read from their old columns, added ones given their
/// default), links are copied, `Z_PRIMARYKEY` is rebuilt, `Z_METADATA`
/// records the destination's version hashes and `Z_MODELCACHE` its model,
/// and the old tables are dropped. SQLite's journal makes it all or
/// nothing: a process killed at any moment leaves the old version or
/// the new one. See <doc:Migration>.
///
/// ```swift
/// let report = try StoreMigrator.migrate(storeAtPath: path, through: [v1, v2, v3])
/// let store = try PersistentStore.open(atPath: path, model: v3)
/// ```
public enum StoreMigrator {
    /// Migrates the store at `path` from `source` to `destination`.
    ///
    /// A store already at `destination` is left untouched.
    ///
    /// - Throws: ``StoreMigrationError``; the store is then unchanged.
    @discardableResult
    public static func migrate(storeAtPath path: String, from source: ObjectModel,
                               to destination: ObjectModel) throws(StoreMigrationError) -> StoreMigrationReport {
        try migrate(storeAtPath: path, through: [source, destination])
    }

    /// Migrates the store at `path` to the last of `models` (oldest first),
    /// starting from the model whose version hashes the store's metadata
    /// records and going through each later one in turn, as Core Data's
    /// progressive migration does (renaming identifiers name the previous
    /// version only). All the steps are one transaction.
    ///
    /// - Throws: ``StoreMigrationError``: ``StoreMigrationErrorCode/unknownVersion``
    ///   when the store is at none of the versions, ``StoreMigrationErrorCode/notLightweight``
    ///   or ``StoreMigrationErrorCode/checkFailed`` for a step that cannot
    ///   be made; the store is then unchanged.
    @discardableResult
    public static func migrate(storeAtPath path: String, through models: [ObjectModel]) throws(StoreMigrationError) -> StoreMigrationReport {
        guard !models.isEmpty else {
            throw StoreMigrationError(.unknownVersion, "no model versions were given", path: path)
        }
        if let current = try versionInImage(path, models: models), current == models.count - 1 {
            return StoreMigrationReport(sourceVersion: current, destinationVersion: current, steps: [])
        }
        let queue = try openForMigration(path)
        defer { try? queue.close() }
        do {
            return try queue.writeWithoutTransaction { db -> StoreMigrationReport in
                var report: StoreMigrationReport?
                try db.inTransaction(.exclusive) {
                    report = try migrate(db, through: models)
                    return .commit
                }
                guard let report else { throw StoreMigrationError(.io, "the migration transaction did not run") }
                return report
            }
        } catch let error as StoreMigrationError {
            throw error.at(path: path)
        } catch let error as DatabaseError {
            throw StoreMigrationError(.io, error.message ?? "the database failed", path: path, sql: error.sql).caused(by: error)
        } catch {
            throw StoreMigrationError(.io, "the migration failed", path: path).caused(by: error)
        }
    }

    /// The store's version read without opening it for writing, when it has
    /// a `-wal` (opening it read-write would checkpoint the log into the main
    /// file, changing its bytes even for a store already at the destination).
    /// Nil when there is no `-wal`, or a rollback journal is beside the store
    /// (only SQLite's own recovery reads that correctly).
    private static func versionInImage(_ path: String, models: [ObjectModel]) throws(StoreMigrationError) -> Int? {
        let log = (try? FileSystemPaths.status(atPath: path + "-wal"))??.size ?? 0
        let journal = (try? FileSystemPaths.status(atPath: path + "-journal"))??.size ?? 0
        guard log > 0, journal == 0 else { return nil }
        do {
            let queue = try DatabaseQueue()
            defer { try? queue.close() }
            let image = try DatabaseImage(readingStoreAt: path)
            let stored = try queue.inDatabase { db in
                try image.deserialize(into: db)
                return try StoredMetadata.read(db)
            }
            return models.lastIndex { $0.versionHashes.entities == stored.metadata.versionHashes.entities }
        } catch let error as StoreMigrationError {
            throw error.at(path: path)
        } catch let error as StoreError {
            throw StoreMigrationError(.notAStore, error.message, path: path, storeError: error.at(path: path))
        } catch {
            throw StoreMigrationError(.io, "cannot read the store's metadata", path: path).caused(by: error)
        }
    }

    /// Opens the file as it is (its journal mode kept), never creating one.
    private static func openForMigration(_ path: String) throws(StoreMigrationError) -> DatabaseQueue {
        guard FileSystemPaths.isRegularFile(atPath: path) else {
            throw StoreMigrationError(.notAStore, "no file at this path", path: path,
                                      storeError: StoreError(.notADatabase, "no file at this path", path: path))
        }
        do {
            _ = try DatabaseImage.checkHeader(PersistentStore.headerBytes(path))
        } catch {
            throw StoreMigrationError(.notAStore, error.message, path: path, storeError: error.at(path: path))
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(PersistentStore.busyTimeout)
        configuration.foreignKeysEnabled = false
        do {
            return try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw StoreMigrationError(.io, "SQLite cannot open the store", path: path).caused(by: error)
        }
    }

    static func migrate(_ db: Database, through models: [ObjectModel]) throws -> StoreMigrationReport {
        let stored = try StoredMetadata.read(db)
        let hashes = stored.metadata.versionHashes.entities
        guard let start = models.lastIndex(where: { $0.versionHashes.entities == hashes }) else {
            throw StoreMigrationError(.unknownVersion, "the store's version hashes (entities \(hashes.keys.sorted().joined(separator: ", "))) "
                                      + "are those of none of the \(models.count) models given")
        }
        var steps: [StoreMigrationReport.Step] = []
        for index in start..<(models.count - 1) {
            let plan: MigrationPlan
            do {
                plan = try MigrationPlan(from: models[index], to: models[index + 1])
            } catch {
                throw StoreMigrationError(.notLightweight, "version \(index) to \(index + 1) is not a lightweight migration", entity: error.entity,
                                          property: error.property, planError: error).caused(by: error)
            }
            let primaryKeys = try PrimaryKeyRow.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY")
            let executor = try MigrationStepExecutor(plan: plan, source: models[index], destination: models[index + 1],
                                                     primaryKeys: primaryKeys)
            let outcome = try executor.run(db)
            steps.append(StoreMigrationReport.Step(from: index, to: index + 1, rowsCopied: outcome.rowsCopied,
                                                   droppedTriggers: outcome.droppedTriggers))
        }
        if let destination = models.last, !steps.isEmpty {
            try stored.write(db, model: destination)
        }
        return StoreMigrationReport(sourceVersion: start, destinationVersion: models.count - 1, steps: steps)
    }
}

extension PersistentStore {
    /// Migrates the store at `path` from `source` to `destination`; see
    /// ``StoreMigrator/migrate(storeAtPath:from:to:)``.
    @discardableResult
    public static func migrate(atPath path: String, from source: ObjectModel,
                               to destination: ObjectModel) throws(StoreMigrationError) -> StoreMigrationReport {
        try StoreMigrator.migrate(storeAtPath: path, from: source, to: destination)
    }

    /// Migrates the store at `path` to the last of `models`; see
    /// ``StoreMigrator/migrate(storeAtPath:through:)``.
    @discardableResult
    public static func migrate(atPath path: String, through models: [ObjectModel]) throws(StoreMigrationError) -> StoreMigrationReport {
        try StoreMigrator.migrate(storeAtPath: path, through: models)
    }
}

/// What a migration did.
public struct StoreMigrationReport: Sendable, Hashable {
    /// One step: from a model version to the next (indexes in the models given).
    public struct Step: Sendable, Hashable {
        public var from: Int
        public var to: Int
        /// The rows copied into each destination table (entity and join tables).
        public var rowsCopied: [String: Int]
        /// Triggers not created again because a table they touch changed
        /// (Core Data's derived-attribute triggers): those derived values
        /// keep what they held and are no longer kept up to date.
        public var droppedTriggers: [String]
    }

    /// The index of the model the store was at.
    public var sourceVersion: Int
    /// The index of the model the store is at now (the last one).
    public var destinationVersion: Int
    /// Empty when the store was already at the destination.
    public var steps: [Step]

    /// Whether anything was written.
    public var didMigrate: Bool { !steps.isEmpty }
}
