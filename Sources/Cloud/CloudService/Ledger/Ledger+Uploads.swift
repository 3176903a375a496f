import CloudProtocol

/// Where an upload's chunk stands after its reservation.
public struct ChunkReservation: Sendable, Hashable {
    /// The chunk's row, and the generation in its object key.
    public var row: Int64
    /// True when the account already stores the chunk: nothing to send.
    public var alreadyStored: Bool
    /// The account's usage after the reservation.
    public var usedBytes: Int64
}

extension Ledger {
    /// Opens an upload session for the caller.
    public func openSession(_ caller: AuthenticatedDevice) async throws(CloudServiceError) -> Int64 {
        let touched = now()
        return try await run { tx throws(CloudStorageError) in
            let rows = try await tx.execute("INSERT INTO sessions (account_id, device_id, touched, state) VALUES (?, ?, ?, 'open') RETURNING id",
                                            .integer(caller.accountID), .integer(caller.deviceID), .integer(touched))
            return .success(try rows.first?.int(0) ?? 0)
        }
    }

    /// Which of `chunks` the account does not store. Those it stores are
    /// held for the session, so a later garbage collection cannot take
    /// them before the commit.
    public func known(_ chunks: [ChunkID], session: Int64, caller: AuthenticatedDevice) async throws(CloudServiceError) -> [ChunkID] {
        let touched = now()
        let lifetime = sessionLifetime
        return try await run { tx throws(CloudStorageError) in
            if let refusal = try await Self.checkSession(tx, session, caller, touched: touched, lifetime: lifetime) { return .failure(refusal) }
            var stored: [String: Int64] = [:]
            let unique = Array(Set(chunks))
            for start in stride(from: 0, to: unique.count, by: Self.batch) {
                let slice = unique[start..<min(start + Self.batch, unique.count)]
                let rows = try await tx.execute(
                    "SELECT chunk_id, id FROM chunks WHERE account_id = ? AND state = 'stored' AND chunk_id IN (\(Self.placeholders(slice.count)))",
                    [.integer(caller.accountID)] + slice.map { .text($0.hex) })
                for row in rows { stored[try row.string(0)] = try row.int(1) }
            }
            try await Self.hold(tx, session: session, rows: Array(stored.values))
            return .success(chunks.filter { stored[$0.hex] == nil })
        }
    }

    /// Reserves room for a chunk about to be stored, or finds it stored.
    ///
    /// Locks the account's row, so concurrent reservations (from any
    /// server process) see each other's usage: one that would pass the
    /// quota, by even a byte, is refused with `quotaExceeded`.
    public func reserve(_ chunk: ChunkID, size: Int64, session: Int64,
                        caller: AuthenticatedDevice) async throws(CloudServiceError) -> ChunkReservation {
        let touched = now()
        let lifetime = sessionLifetime
        let dialect = database.dialect
        return try await run { tx throws(CloudStorageError) in
            guard let (quota, used) = try await Self.lockAccount(tx, caller.accountID, dialect) else {
                return .failure(CloudServiceError(.unauthorized, "the account is gone"))
            }
            if let refusal = try await Self.checkSession(tx, session, caller, touched: touched, lifetime: lifetime) { return .failure(refusal) }
            if let row = try await tx.execute("SELECT id, state, size FROM chunks WHERE account_id = ? AND chunk_id = ?",
                                              .integer(caller.accountID), .text(chunk.hex)).first {
                let id = try row.int(0)
                let state = try row.string(1)
                // The row charges its own size; a body of another size under
                // the same id (a race of two PUTs, or a retry after a kill
                // left the row pending) would be stored uncharged.
                let charged = try row.int(2)
                guard charged == size else {
                    return .failure(CloudServiceError(.conflict, "the chunk \(chunk.hex) is \(state) with \(charged) bytes, "
                                                      + "not \(size); one chunk id has one encrypted size"))
                }
                try await Self.hold(tx, session: session, rows: [id])
                return .success(ChunkReservation(row: id, alreadyStored: state == "stored", usedBytes: used))
            }
            guard used <= quota, size <= quota - used else {
                return .failure(.quotaExceeded(used: used, quota: quota, needed: size))
            }
            let id = try await tx.execute("""
                INSERT INTO chunks (account_id, chunk_id, size, state, created) VALUES (?, ?, ?, 'pending', ?) RETURNING id
                """, .integer(caller.accountID), .text(chunk.hex), .integer(size), .integer(touched)).first?.int(0) ?? 0
            try await tx.execute("UPDATE accounts SET used = used + ? WHERE id = ?", .integer(size), .integer(caller.accountID))
            try await Self.hold(tx, session: session, rows: [id])
            return .success(ChunkReservation(row: id, alreadyStored: false, usedBytes: used + size))
        }
    }

    /// Marks a reserved chunk stored once its object is durable. False when
    /// the reservation is gone (its session expired and garbage collection
    /// released it): the caller then removes the object it wrote.
    /// `size` is the object's: a row that charges another size is not
    /// marked (the object is then removed), so no stored byte goes uncharged.
    public func markStored(row: Int64, size: Int64) async throws(CloudServiceError) -> Bool {
        try await run { tx throws(CloudStorageError) in
            .success(!(try await tx.execute("UPDATE chunks SET state = 'stored' WHERE id = ? AND size = ? RETURNING id",
                                            .integer(row), .integer(size)).isEmpty))
        }
    }

    /// Commits the session as the device's current snapshot, in one
    /// transaction, once every chunk it names is stored; the device's
    /// previous snapshot is retired (garbage collection frees what only it
    /// held). Chunks that are not stored refuse the commit with
    /// `missingChunks`, and the previous snapshot stays current.
    public func commit(_ request: CommitRequest, session: Int64, caller: AuthenticatedDevice) async throws(CloudServiceError) -> SnapshotSummary {
        let touched = now()
        let lifetime = sessionLifetime
        let dialect = database.dialect
        return try await run { tx throws(CloudStorageError) in
            guard try await Self.lockAccount(tx, caller.accountID, dialect) != nil else {
                return .failure(CloudServiceError(.unauthorized, "the account is gone"))
            }
            if let refusal = try await Self.checkSession(tx, session, caller, touched: touched, lifetime: lifetime) { return .failure(refusal) }
            let unique = Array(Set(request.chunks + [request.manifest])).sorted()
            var rows: [String: Int64] = [:]
            for start in stride(from: 0, to: unique.count, by: Self.batch) {
                let slice = unique[start..<min(start + Self.batch, unique.count)]
                for row in try await tx.execute(
                    "SELECT chunk_id, id FROM chunks WHERE account_id = ? AND state = 'stored' AND chunk_id IN (\(Self.placeholders(slice.count)))",
                    [.integer(caller.accountID)] + slice.map { .text($0.hex) }) {
                    rows[try row.string(0)] = try row.int(1)
                }
            }
            let missing = unique.filter { rows[$0.hex] == nil }
            guard missing.isEmpty else {
                var refusal = CloudServiceError(.missingChunks, "\(missing.count) chunk(s) of the snapshot are not stored; send them, then commit again")
                refusal.missing = Array(missing.prefix(1000))
                return .failure(refusal)
            }
            let snapshot = try await tx.execute("""
                INSERT INTO snapshots (account_id, device_id, created, manifest, files, bytes, chunk_count, state)
                VALUES (?, ?, ?, ?, ?, ?, ?, 'current') RETURNING id
                """, .integer(caller.accountID), .integer(caller.deviceID), .integer(touched), .text(request.manifest.hex),
                .integer(request.files), .integer(request.bytes), .integer(Int64(unique.count))).first?.int(0) ?? 0
            let chunkRows = Array(rows.values)
            for start in stride(from: 0, to: chunkRows.count, by: Self.batch) {
                let slice = chunkRows[start..<min(start + Self.batch, chunkRows.count)]
                try await tx.execute("INSERT INTO snapshot_chunks (snapshot_id, chunk_row) VALUES "
                                     + Array(repeating: "(?, ?)", count: slice.count).joined(separator: ", "),
                                     slice.flatMap { [LedgerValue.integer(snapshot), .integer($0)] })
            }
            try await tx.execute("UPDATE snapshots SET state = 'retired' WHERE device_id = ? AND state = 'current' AND id <> ?",
                                 .integer(caller.deviceID), .integer(snapshot))
            try await tx.execute("UPDATE sessions SET state = 'committed' WHERE id = ?", .integer(session))
            try await tx.execute("DELETE FROM session_chunks WHERE session_id = ?", .integer(session))
            return .success(SnapshotSummary(snapshotID: snapshot, deviceID: caller.deviceID, created: touched, files: request.files,
                                            bytes: request.bytes, chunkCount: Int64(unique.count), manifest: request.manifest))
        }
    }

    /// Abandons an upload session: what it held is released at the next
    /// garbage collection unless a snapshot references it.
    public func abandon(session: Int64, caller: AuthenticatedDevice) async throws(CloudServiceError) {
        try await run { tx throws(CloudStorageError) -> Result<Void, CloudServiceError> in
            let rows = try await tx.execute("""
                UPDATE sessions SET state = 'abandoned' WHERE id = ? AND account_id = ? AND device_id = ? AND state = 'open' RETURNING id
                """, .integer(session), .integer(caller.accountID), .integer(caller.deviceID))
            guard !rows.isEmpty else {
                // A session that is no longer open is a conflict, as for its other routes; one that was never this device's is missing.
                let state = try await tx.execute("SELECT state FROM sessions WHERE id = ? AND account_id = ? AND device_id = ?",
                                                 .integer(session), .integer(caller.accountID), .integer(caller.deviceID)).first
                guard let state else { return .failure(CloudServiceError(.notFound, "no session \(session) of this device")) }
                return .failure(CloudServiceError(.conflict, "the session \(session) is \(try state.string(0)), not open"))
            }
            try await tx.execute("DELETE FROM session_chunks WHERE session_id = ?", .integer(session))
            return .success(())
        }
    }

    /// Nil when the session is the caller's, open and alive (and marks it
    /// used now); otherwise the refusal.
    static func checkSession(_ tx: any LedgerTransaction, _ session: Int64, _ caller: AuthenticatedDevice,
                             touched: Int64, lifetime: Int64) async throws(CloudStorageError) -> CloudServiceError? {
        guard let row = try await tx.execute("SELECT state, touched FROM sessions WHERE id = ? AND account_id = ? AND device_id = ?",
                                             .integer(session), .integer(caller.accountID), .integer(caller.deviceID)).first else {
            return CloudServiceError(.notFound, "no session \(session) of this device")
        }
        guard try row.string(0) == "open", try row.int(1) + lifetime >= touched else {
            return CloudServiceError(.conflict, "the session \(session) is closed or expired; open a new one")
        }
        try await tx.execute("UPDATE sessions SET touched = ? WHERE id = ?", .integer(touched), .integer(session))
        return nil
    }

    /// Holds chunk rows for a session against garbage collection.
    static func hold(_ tx: any LedgerTransaction, session: Int64, rows: [Int64]) async throws(CloudStorageError) {
        for start in stride(from: 0, to: rows.count, by: batch) {
            let slice = rows[start..<min(start + batch, rows.count)]
            try await tx.execute("INSERT INTO session_chunks (session_id, chunk_row) VALUES "
                                 + Array(repeating: "(?, ?)", count: slice.count).joined(separator: ", ") + " ON CONFLICT DO NOTHING",
                                 slice.flatMap { [LedgerValue.integer(session), .integer($0)] })
        }
    }
}
