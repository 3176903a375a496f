/// What the whole service stores, from the ledger (so every server process
/// reports the same figures).
public struct LedgerTotals: Sendable, Hashable {
    /// Unique chunks and their bytes, over every account.
    public var chunks: Int64 = 0
    public var storedBytes: Int64 = 0
    /// Bytes the current snapshots reference, counting a chunk once per
    /// snapshot: what the service would store without deduplication.
    public var referencedBytes: Int64 = 0
    /// Per account: name, usage and quota.
    public var accounts: [AccountUsage] = []

    /// One account's usage and quota.
    public struct AccountUsage: Sendable, Hashable {
        public var name: String
        public var used: Int64
        public var quota: Int64
    }

    /// Bytes deduplication saved.
    public var deduplicatedBytes: Int64 { max(0, referencedBytes - storedBytes) }
}

extension Ledger {
    /// The service's totals.
    public func totals() async throws(CloudServiceError) -> LedgerTotals {
        try await run(reading: true) { tx throws(CloudStorageError) in
            var totals = LedgerTotals()
            if let row = try await tx.execute("SELECT COUNT(*), COALESCE(SUM(size), 0) FROM chunks WHERE state = 'stored'").first {
                totals.chunks = try row.int(0)
                totals.storedBytes = try row.int(1)
            }
            totals.referencedBytes = try await tx.execute("""
                SELECT COALESCE(SUM(c.size), 0) FROM snapshot_chunks s JOIN chunks c ON c.id = s.chunk_row
                JOIN snapshots p ON p.id = s.snapshot_id WHERE p.state = 'current'
                """).first?.int(0) ?? 0
            for row in try await tx.execute("SELECT name, used, quota FROM accounts ORDER BY name") {
                totals.accounts.append(LedgerTotals.AccountUsage(name: try row.string(0), used: try row.int(1), quota: try row.int(2)))
            }
            return .success(totals)
        }
    }
}
