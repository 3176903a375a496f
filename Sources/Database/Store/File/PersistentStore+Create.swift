import FileSystem
import Foundation
import GRDB
import OrderedCollections
import PropertyList

extension PersistentStore {
    /// Creates a new store at `path` in Core Data's layout: the model's
    /// tables and indexes, `Z_PRIMARYKEY` with a row per entity,
    /// `Z_METADATA` with the metadata property list, and `Z_MODELCACHE`.
    ///
    /// - Parameters:
    ///   - metadata: `Z_METADATA.Z_PLIST`, a binary property list; by
    ///     default one naming the store type, a new store UUID and the
    ///     model's version identifiers.
    ///   - modelCache: `Z_MODELCACHE.Z_CONTENT` (the raw-deflated keyed
    ///     archive of the model), when the caller has one.
    /// - Throws: ``StoreError/Code/io`` when a file is already there or
    ///   SQLite cannot create it.
    public static func create(atPath path: String, model: ObjectModel, metadata: Data? = nil,
                              modelCache: Data? = nil) throws(StoreError) -> PersistentStore {
        let layout = try StoreLayout(model: model)
        guard !FileSystemPaths.exists(atPath: path) else {
            throw StoreError(.io, "a file is already there", path: path)
        }
        let identifier = UUID().uuidString
        let plist: Data
        if let metadata { plist = metadata } else { plist = try defaultMetadata(model: model, storeIdentifier: identifier) }
        // The model goes into the store as Core Data caches it, so the store
        // can be read with nothing but its file (`sandbox store schema`).
        let cache: Data
        if let modelCache { cache = modelCache } else {
            do { cache = try model.modelCacheData() } catch {
                throw StoreError(.invalidModel, "cannot archive the model for Z_MODELCACHE: \(error)", path: path)
            }
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
                try db.execute(sql: "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", arguments: [cache])
            }
        } catch {
            throw StoreError(.io, "cannot create the store's tables: \(error)", path: path)
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

    /// The metadata property list of a new store.
    static func defaultMetadata(model: ObjectModel, storeIdentifier: String) throws(StoreError) -> Data {
        // Core Data's own metadata: the model's version hashes, digest and
        // checksum, so Core Data (and any reader that checks them) takes
        // the store for one written with this model.
        var metadata = StoreMetadata(model: model)
        metadata.otherEntries["NSStoreUUID"] = .string(storeIdentifier)
        do {
            return try metadata.propertyListData()
        } catch {
            throw StoreError(.io, "cannot encode the store's metadata: \(error)")
        }
    }
}
