import Foundation
import GRDB

/// The store's `Z_METADATA` row, read before a migration and rewritten
/// after it with the destination's hashes (its `Z_UUID` and every other
/// entry kept), with `Z_MODELCACHE` holding the destination model.
struct StoredMetadata {
    var version: Int64
    var metadata: StoreMetadata

    static func read(_ db: Database) throws -> StoredMetadata {
        guard try db.tableExists("Z_METADATA"), try db.tableExists("Z_PRIMARYKEY") else {
            throw StoreMigrationError(.notAStore, "the file has no Z_METADATA or Z_PRIMARYKEY table",
                                      storeError: StoreError(.notACoreDataStore, "no Z_METADATA or Z_PRIMARYKEY table"))
        }
        let sql = "SELECT Z_VERSION, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1"
        guard let row = try Row.fetchOne(db, sql: sql), let plist: Data = row[1] else {
            throw StoreMigrationError(.notAStore, "Z_METADATA holds no property list", sql: sql,
                                      storeError: StoreError(.notACoreDataStore, "Z_METADATA holds no property list"))
        }
        do {
            return StoredMetadata(version: row[0] ?? 1, metadata: try StoreMetadata(propertyList: plist))
        } catch {
            throw StoreMigrationError(.notAStore, "the metadata cannot be read", sql: sql,
                                      storeError: StoreError(.notACoreDataStore, "the metadata cannot be read").caused(by: error))
                .caused(by: error)
        }
    }

    func write(_ db: Database, model: ObjectModel) throws {
        var updated = metadata
        let hashes = model.versionHashes
        updated.versionHashes = hashes
        updated.versionHashesDigest = hashes.digest
        updated.versionChecksum = hashes.checksum
        updated.versionIdentifiers = model.versionIdentifiers
        do {
            try db.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = ?", arguments: [updated.propertyListData(), version])
            let cache = try model.modelCacheData()
            if try !db.tableExists("Z_MODELCACHE") {
                try db.execute(sql: "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
            }
            try db.execute(sql: "DELETE FROM Z_MODELCACHE")
            try db.execute(sql: "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", arguments: [cache])
        } catch let error as ModelError {
            throw StoreMigrationError(.io, "cannot encode the destination's metadata or model cache").caused(by: error)
        }
    }
}
