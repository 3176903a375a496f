import CloudProtocol

extension Ledger {
    /// The current snapshots of the caller's account, of one device or all.
    public func snapshots(deviceID: Int64?, caller: AuthenticatedDevice) async throws(CloudServiceError) -> [SnapshotSummary] {
        try await run(reading: true) { tx throws(CloudStorageError) in
            if let deviceID, !(try await Self.ownsDevice(tx, caller, deviceID)) { return .failure(Self.noDevice(deviceID)) }
            return .success(try await Self.snapshots(tx, accountID: caller.accountID, deviceID: deviceID))
        }
    }

    /// One current snapshot of the caller's account and every chunk it references.
    public func snapshot(_ id: Int64, caller: AuthenticatedDevice) async throws(CloudServiceError) -> SnapshotDetail {
        try await run(reading: true) { tx throws(CloudStorageError) in
            guard let summary = try await Self.snapshots(tx, accountID: caller.accountID, deviceID: nil, snapshotID: id).first else {
                return .failure(CloudServiceError(.notFound, "no snapshot \(id) in this account"))
            }
            var chunks: [ChunkID] = []
            for row in try await tx.execute("""
                SELECT c.chunk_id FROM snapshot_chunks s JOIN chunks c ON c.id = s.chunk_row WHERE s.snapshot_id = ? ORDER BY c.chunk_id
                """, .integer(id)) {
                chunks.append(try row.chunkID(0))
            }
            return .success(SnapshotDetail(snapshot: summary, chunks: chunks))
        }
    }

    /// The object key of a chunk the caller's account stores, or `notFound`.
    public func objectKey(of chunk: ChunkID, caller: AuthenticatedDevice) async throws(CloudServiceError) -> String {
        try await run(reading: true) { tx throws(CloudStorageError) in
            guard let row = try await tx.execute("SELECT id FROM chunks WHERE account_id = ? AND chunk_id = ? AND state = 'stored'",
                                                 .integer(caller.accountID), .text(chunk.hex)).first else {
                return .failure(CloudServiceError(.notFound, "this account stores no chunk \(chunk.hex)"))
            }
            return .success(ChunkKey.make(account: caller.accountID, chunk: chunk.hex, generation: try row.int(0)))
        }
    }

    static func snapshots(_ tx: any LedgerTransaction, accountID: Int64, deviceID: Int64?,
                          snapshotID: Int64? = nil) async throws(CloudStorageError) -> [SnapshotSummary] {
        var sql = "SELECT id, device_id, created, files, bytes, chunk_count, manifest FROM snapshots WHERE account_id = ? AND state = 'current'"
        var arguments: [LedgerValue] = [.integer(accountID)]
        if let deviceID {
            sql += " AND device_id = ?"
            arguments.append(.integer(deviceID))
        }
        if let snapshotID {
            sql += " AND id = ?"
            arguments.append(.integer(snapshotID))
        }
        var summaries: [SnapshotSummary] = []
        for row in try await tx.execute(sql + " ORDER BY id", arguments) {
            summaries.append(SnapshotSummary(snapshotID: try row.int(0), deviceID: try row.int(1), created: try row.int(2), files: try row.int(3),
                                             bytes: try row.int(4), chunkCount: try row.int(5), manifest: try row.chunkID(6)))
        }
        return summaries
    }
}
