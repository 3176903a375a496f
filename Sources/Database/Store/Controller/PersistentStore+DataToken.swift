import GRDB

extension PersistentStore {
    /// A token that changes whenever an object of the entity (or of its
    /// sub-entities) is inserted, deleted or saved: the persistent results
    /// cache's second key.
    ///
    /// Every save increments an object's `Z_OPT` (Core Data's optimistic
    /// locking version), and new objects get keys above `Z_MAX`, so the
    /// count, the largest key, the sum of versions and a mixed sum of
    /// (key, version) pairs together change on any save. One pass over the
    /// table's two integer columns, no object is read. A writer that changes
    /// rows without incrementing `Z_OPT` (plain SQL) is not seen; Core Data
    /// and this module always increment it.
    public func dataToken(forEntity entityName: String) throws(StoreError) -> String {
        let entity = try layout.requireEntity(entityName)
        // The products stay below 2^63 for a million rows: keys are reduced
        // modulo a prime, versions are small.
        let sql = """
            SELECT count(*), ifnull(max(Z_PK), 0), ifnull(sum(Z_OPT), 0),
                   ifnull(sum((Z_PK % 1000003) * 1000033 + (Z_OPT % 1000003) * 7919), 0)
            FROM \(entity.tableName) WHERE \(Self.entityFilter(entity.entityNumbers))
            """
        return try read { db in
            guard let row = try Row.fetchOne(db, sql: sql) else { return "empty" }
            let parts: [Int64] = [row[0], row[1], row[2], row[3]]
            return parts.map(String.init).joined(separator: "-")
        }
    }
}

extension PersistentStore {
    /// The store's identity: the UUID Core Data wrote in `Z_METADATA` when
    /// it created the store (`NSStoreUUIDKey`).
    public func storeIdentifier() throws(StoreError) -> String {
        try read { db in
            try String.fetchOne(db, sql: "SELECT Z_UUID FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1") ?? ""
        }
    }
}
