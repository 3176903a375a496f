import CloudProtocol
import Foundation

/// The service's transactional state, written once over ``LedgerDatabase``
/// so SQLite and PostgreSQL run the same statements.
///
/// Every operation is one transaction. The ones that change what an
/// account stores (a reservation, a commit, garbage collection) begin by
/// locking the account's row, so for one account they happen one after
/// another, in every server process at once: the quota check and the
/// reservation it allows can never be split by another upload.
public struct Ledger: Sendable {
    public let database: any LedgerDatabase
    /// The quota of a new account.
    public var defaultQuota: Int64
    /// Seconds an upload session lives without activity; after that,
    /// garbage collection releases what it held.
    public var sessionLifetime: Int64
    /// The clock, in seconds since 1970 (tests move it).
    public var now: @Sendable () -> Int64

    public init(database: any LedgerDatabase, defaultQuota: Int64 = CloudLimits.defaultQuotaBytes, sessionLifetime: Int64 = 3600,
                now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }) {
        self.database = database
        self.defaultQuota = defaultQuota
        self.sessionLifetime = sessionLifetime
        self.now = now
    }

    /// Creates the tables that are missing (safe from several processes at once).
    public func prepare() async throws(CloudStorageError) {
        let dialect = database.dialect
        try await database.transaction { tx throws(CloudStorageError) in
            if let lock = dialect.schemaLockStatement { try await tx.execute(lock) }
            for statement in LedgerSchema.statements(dialect) { try await tx.execute(statement) }
        }
    }

    /// Runs `body` in a transaction; a refusal it returns rolls nothing
    /// back (refusals are decided before anything is written) and is thrown.
    /// With `reading`, `body` only reads and runs on the engine's read path
    /// (``LedgerDatabase/read(_:)``), never queued behind a write.
    func run<T: Sendable>(
        reading: Bool = false,
        _ body: @Sendable (any LedgerTransaction) async throws(CloudStorageError) -> Result<T, CloudServiceError>
    ) async throws(CloudServiceError) -> T {
        let outcome: Result<T, CloudServiceError>
        do { outcome = reading ? try await database.read(body) : try await database.transaction(body) } catch { throw CloudServiceError(error) }
        return try outcome.get()
    }

    /// Locks the account's row for the rest of the transaction and returns
    /// its quota and usage.
    static func lockAccount(_ tx: any LedgerTransaction, _ accountID: Int64,
                            _ dialect: LedgerDialect) async throws(CloudStorageError) -> (quota: Int64, used: Int64)? {
        let rows = try await tx.execute("SELECT quota, used FROM accounts WHERE id = ? \(dialect.lockAccountRowSuffix)",
                                        .integer(accountID))
        guard let row = rows.first else { return nil }
        return (try row.int(0), try row.int(1))
    }

    /// `?, ?, …` for `count` values.
    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// How many values one `IN (…)` list binds.
    static let batch = 500
}

extension Array where Element == LedgerValue {
    /// Column `index` as an integer; anything else is a ledger the code does not understand.
    func int(_ index: Int) throws(CloudStorageError) -> Int64 {
        guard index < count, let value = self[index].integer else {
            throw CloudStorageError(.protocolError, "read column \(index)", "expected an integer, found \(index < count ? "\(self[index])" : "nothing")")
        }
        return value
    }

    /// Column `index` as text.
    func string(_ index: Int) throws(CloudStorageError) -> String {
        guard index < count, let value = self[index].text else {
            throw CloudStorageError(.protocolError, "read column \(index)", "expected text, found \(index < count ? "\(self[index])" : "nothing")")
        }
        return value
    }

    /// Column `index` as bytes.
    func bytes(_ index: Int) throws(CloudStorageError) -> [UInt8] {
        guard index < count, let value = self[index].blob else {
            throw CloudStorageError(.protocolError, "read column \(index)", "expected bytes, found \(index < count ? "\(self[index])" : "nothing")")
        }
        return value
    }

    /// Column `index` as a chunk id.
    func chunkID(_ index: Int) throws(CloudStorageError) -> ChunkID {
        let text = try string(index)
        guard let id = ChunkID(text) else {
            throw CloudStorageError(.protocolError, "read column \(index)", "not a chunk id: \(text.prefix(80))")
        }
        return id
    }
}
