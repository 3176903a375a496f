import FileSystem
import Foundation
import GRDB

extension PersistentStore {
    /// Creates a new store at `path` in Core Data's layout: the model's
    /// tables and indexes, `Z_PRIMARYKEY` with a row per entity,
    /// `Z_METADATA` with the metadata property list, and `Z_MODELCACHE`.
    ///
    /// - Parameters:
    ///   - metadata: the metadata to write in `Z_METADATA.Z_PLIST`; by
    ///     default ``StoreMetadata/init(model:frameworkVersion:)`` (the
    ///     model's version hashes, as Core Data writes them) with a new
    ///     `NSStoreUUID`.
    /// - Throws: ``StoreErrorCode/io`` when a file is already there or
    ///   SQLite cannot create it; ``StoreErrorCode/invalidModel`` when the
    ///   model cannot be archived into `Z_MODELCACHE`.
    public static func create(atPath path: String, model: ObjectModel,
                              metadata: StoreMetadata? = nil) throws(StoreError) -> PersistentStore {
        let layout = try StoreLayout(model: model)
        guard !FileSystemPaths.exists(atPath: path) else {
            throw StoreError(.io, "a file is already there", path: path)
        }
        var entries = metadata ?? StoreMetadata(model: model)
        let identifier = entries.otherEntries["NSStoreUUID"]?.stringValue ?? UUID().uuidString
        entries.otherEntries["NSStoreUUID"] = .string(identifier)
        let plist: Data
        let modelCache: Data
        do {
            plist = try entries.propertyListData()
            modelCache = try model.modelCacheData()
        } catch {
            throw StoreError(.invalidModel, "cannot write the store's metadata or model cache", path: path).caused(by: error)
        }
        let pool = try connect(path)
        do {
            try pool.write { db in
                for statement in layout.schemaStatements { try db.execute(sql: statement) }
                for entity in layout.entities {
                    try db.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                                   arguments: [entity.number, entity.name, entity.superNumber])
                }
                try db.execute(sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                               arguments: [identifier, plist])
                try db.execute(sql: "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", arguments: [modelCache])
            }
        } catch {
            throw StoreError(.io, "cannot create the store's tables", path: path).caused(by: error)
        }
        return PersistentStore(path: path, layout: layout, isReadOnly: false, database: pool)
    }

    /// The store's metadata property list (`Z_METADATA.Z_PLIST`).
    public func metadataPropertyList() throws(StoreError) -> Data? {
        try read { db in try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1") }
    }

    /// The model Core Data cached in the store (`Z_MODELCACHE.Z_CONTENT`), still deflated.
    public func modelCacheData() throws(StoreError) -> Data? {
        try read { db in
            guard try db.tableExists("Z_MODELCACHE") else { return nil }
            return try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1")
        }
    }

    /// The rows of `Z_PRIMARYKEY`, in entity-number order.
    public func primaryKeyRows() throws(StoreError) -> [PrimaryKeyRow] {
        try read { db in
            try PrimaryKeyRow.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        }
    }
}
