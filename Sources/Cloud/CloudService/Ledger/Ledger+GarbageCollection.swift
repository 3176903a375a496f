import CloudProtocol

extension Ledger {
    /// One account's garbage collection, in one short transaction that
    /// locks only that account's row (uploads to other accounts go on;
    /// this account's wait for one transaction, not for the collection):
    /// - sessions idle longer than ``sessionLifetime`` expire and release
    ///   what they held;
    /// - retired snapshots (replaced by a newer one of their device) go;
    /// - chunks that no current snapshot and no open session references are
    ///   removed from the ledger and the account's usage.
    ///
    /// Returns the object keys to delete from the chunk store. They are
    /// deleted after the commit: a chunk sent again meanwhile gets a new
    /// generation, so its key differs and nothing new is lost.
    public func collectGarbage(accountID: Int64) async throws(CloudServiceError) -> (report: GarbageCollectionReport, keys: [String]) {
        let current = now()
        let lifetime = sessionLifetime
        let dialect = database.dialect
        return try await run { tx throws(CloudStorageError) in
            guard try await Self.lockAccount(tx, accountID, dialect) != nil else { return .success((GarbageCollectionReport(), [])) }
            var report = GarbageCollectionReport()
            report.sessionsExpired = Int64(try await tx.execute("""
                UPDATE sessions SET state = 'expired' WHERE account_id = ? AND state = 'open' AND touched < ? RETURNING id
                """, .integer(accountID), .integer(current - lifetime)).count)
            try await tx.execute("""
                DELETE FROM session_chunks WHERE session_id IN (SELECT id FROM sessions WHERE account_id = ? AND state <> 'open')
                """, .integer(accountID))
            // A closed session's row stays a while, so its routes still
            // answer 409 (closed) rather than 404 (never this device's).
            try await tx.execute("DELETE FROM sessions WHERE account_id = ? AND state <> 'open' AND touched < ?",
                                 .integer(accountID), .integer(current - Self.closedSessionRetention))
            try await tx.execute("""
                DELETE FROM snapshot_chunks WHERE snapshot_id IN (SELECT id FROM snapshots WHERE account_id = ? AND state = 'retired')
                """, .integer(accountID))
            report.snapshotsRetired = Int64(try await tx.execute(
                "DELETE FROM snapshots WHERE account_id = ? AND state = 'retired' RETURNING id", .integer(accountID)).count)
            let dead = try await tx.execute("""
                DELETE FROM chunks WHERE account_id = ?
                AND NOT EXISTS (SELECT 1 FROM snapshot_chunks s WHERE s.chunk_row = chunks.id)
                AND NOT EXISTS (SELECT 1 FROM session_chunks h WHERE h.chunk_row = chunks.id)
                RETURNING id, chunk_id, size
                """, .integer(accountID))
            var keys: [String] = []
            for row in dead {
                keys.append(ChunkKey.make(account: accountID, chunk: try row.string(1), generation: try row.int(0)))
                report.bytesFreed += try row.int(2)
            }
            report.chunksFreed = Int64(dead.count)
            if report.bytesFreed > 0 {
                try await tx.execute("UPDATE accounts SET used = used - ? WHERE id = ?", .integer(report.bytesFreed), .integer(accountID))
            }
            return .success((report, keys))
        }
    }

    /// Which of `keys` (listed from the chunk store) no ledger row names:
    /// objects a collection freed but did not delete (it was killed after
    /// its commit), which no quota counts. Keys the ledger never makes are
    /// left alone.
    ///
    /// Safe against uploads in flight: a put writes its key only after the
    /// reservation that made the row committed, and the rows are read
    /// after the keys were listed, so a key whose row is missing here had
    /// its row removed, and a row id (the key's generation) is never
    /// given again.
    public func orphans(among keys: [String]) async throws(CloudServiceError) -> [String] {
        let parsed = keys.compactMap { key in ChunkKey.parse(key).map { (key: key, parts: $0) } }
        return try await run(reading: true) { tx throws(CloudStorageError) in
            var live = Set<String>()
            for start in stride(from: 0, to: parsed.count, by: Self.batch) {
                let slice = parsed[start..<min(start + Self.batch, parsed.count)]
                for row in try await tx.execute("SELECT id, account_id, chunk_id FROM chunks WHERE id IN (\(Self.placeholders(slice.count)))",
                                                 slice.map { LedgerValue.integer($0.parts.generation) }) {
                    live.insert(ChunkKey.make(account: try row.int(1), chunk: try row.string(2), generation: try row.int(0)))
                }
            }
            return .success(parsed.map(\.key).filter { !live.contains($0) })
        }
    }

    /// Seconds a closed (committed, abandoned, expired) session's row is
    /// kept after its last use: 30 days.
    public static let closedSessionRetention: Int64 = 30 * 24 * 3600

    /// Every account's id, for a collection over the whole service.
    public func accountIDs() async throws(CloudServiceError) -> [Int64] {
        try await run(reading: true) { tx throws(CloudStorageError) in
            .success(try await tx.execute("SELECT id FROM accounts ORDER BY id").map { row throws(CloudStorageError) in try row.int(0) })
        }
    }
}
