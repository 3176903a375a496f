/// A value bound to, or read from, a ledger statement.
public enum LedgerValue: Sendable, Hashable {
    case integer(Int64)
    case text(String)
    case blob([UInt8])
    case null

    public var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
    public var text: String? { if case .text(let value) = self { value } else { nil } }
    public var blob: [UInt8]? { if case .blob(let value) = self { value } else { nil } }
    public var isNull: Bool { self == .null }
}

/// One result row, its columns in the order the statement selected them.
public typealias LedgerRow = [LedgerValue]

/// The statements of one transaction.
///
/// Statements use `?` placeholders; an implementation rewrites them for its
/// engine (PostgreSQL's `$1`, `$2`…). The SQL the ledger sends is the common
/// subset of SQLite 3.35+ and PostgreSQL 15: `INSERT … ON CONFLICT DO
/// NOTHING`, `RETURNING`, `BIGINT`, `TEXT`; binary columns are declared
/// with ``LedgerDialect/blobType``.
public protocol LedgerTransaction {
    /// Runs one statement and returns the rows it produced (none for most
    /// writes without `RETURNING`).
    @discardableResult
    func execute(_ sql: String, _ arguments: [LedgerValue]) async throws(CloudStorageError) -> [LedgerRow]
}

extension LedgerTransaction {
    @discardableResult
    public func execute(_ sql: String, _ arguments: LedgerValue...) async throws(CloudStorageError) -> [LedgerRow] {
        try await execute(sql, arguments)
    }
}

/// The SQL engine under the ledger: SQLite through GRDB (the embedded
/// default) or PostgreSQL through postgres-nio (the distributed store).
///
/// The ledger holds everything that must be transactional: accounts,
/// device tokens (hashed), chunk references and their sizes, snapshots,
/// the quota. The ledger's logic (`Ledger`) is written once over this
/// protocol; only statement execution differs between engines.
public protocol LedgerDatabase: Sendable {
    /// What the engine calls its types.
    var dialect: LedgerDialect { get }
    /// Runs `body` in one transaction (READ COMMITTED on PostgreSQL, where
    /// the account-row lock serializes what must be; `BEGIN IMMEDIATE` on
    /// SQLite) and commits it, or rolls
    /// it back when `body` throws.
    ///
    /// Transactions that change an account's usage begin by locking that
    /// account's row (``LedgerDialect/lockAccountRowSuffix``); on SQLite
    /// every write transaction is `BEGIN IMMEDIATE`, which serializes them
    /// across processes. An implementation retries a transaction the engine
    /// aborted for a serialization failure or deadlock (it may run `body`
    /// again), and never returns such an error while retries are left.
    func transaction<Result: Sendable>(
        _ body: @Sendable (any LedgerTransaction) async throws(CloudStorageError) -> Result
    ) async throws(CloudStorageError) -> Result
    /// Runs `body`, which only reads, in one read transaction that sees a
    /// consistent snapshot and never waits for a writer: token checks and
    /// read-only routes do not queue behind uploads and commits. (SQLite:
    /// reader connections beside the writer, in WAL mode; PostgreSQL: a
    /// transaction that locks nothing, which MVCC never makes wait.)
    func read<Result: Sendable>(
        _ body: @Sendable (any LedgerTransaction) async throws(CloudStorageError) -> Result
    ) async throws(CloudStorageError) -> Result
    /// Closes connections (a pool's, a queue's).
    func close() async
}

extension LedgerDatabase {
    /// An engine whose plain transactions take no lock until they write
    /// reads in one of them.
    public func read<Result: Sendable>(
        _ body: @Sendable (any LedgerTransaction) async throws(CloudStorageError) -> Result
    ) async throws(CloudStorageError) -> Result {
        try await transaction(body)
    }
}

/// The few places where SQLite and PostgreSQL spell things differently.
public struct LedgerDialect: Sendable, Hashable {
    /// `BLOB` or `BYTEA`.
    public var blobType: String
    /// `INTEGER PRIMARY KEY AUTOINCREMENT` or `BIGSERIAL PRIMARY KEY`.
    public var autoIncrementPrimaryKey: String
    /// What follows a `SELECT … FROM accounts WHERE id = ?` that locks the
    /// row for the rest of the transaction: `FOR UPDATE`, or nothing on
    /// SQLite, whose write transactions already exclude each other.
    public var lockAccountRowSuffix: String
    /// A statement that makes concurrent schema creation by several
    /// processes take turns (PostgreSQL's `CREATE TABLE IF NOT EXISTS` is
    /// not safe against itself), or nil where the write lock already does.
    public var schemaLockStatement: String?

    public static let sqlite = LedgerDialect(blobType: "BLOB", autoIncrementPrimaryKey: "INTEGER PRIMARY KEY AUTOINCREMENT",
                                             lockAccountRowSuffix: "", schemaLockStatement: nil)
    public static let postgres = LedgerDialect(blobType: "BYTEA", autoIncrementPrimaryKey: "BIGSERIAL PRIMARY KEY",
                                               lockAccountRowSuffix: "FOR UPDATE",
                                               schemaLockStatement: "SELECT 1 FROM pg_advisory_xact_lock(1717)")
}
