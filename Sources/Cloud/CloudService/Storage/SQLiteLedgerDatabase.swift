import Foundation
import GRDB

/// The embedded default's ledger engine: one SQLite file through GRDB.
///
/// Every write transaction is `BEGIN IMMEDIATE`, which takes SQLite's write
/// lock at once: transactions exclude each other across every process that
/// opens the file (two server processes on one ledger behave as one), and
/// within one process they take turns on the writer connection. A process
/// that finds the lock taken waits up to ``busyTimeout`` seconds.
///
/// The file is in WAL mode, and reads (``read(_:)``: token checks, account
/// status, snapshot lists) run on reader connections of their own, each a
/// `BEGIN` … `COMMIT` over one snapshot of the file: they never wait for
/// the writer, so one account's long commit does not hold another's
/// `GET /v1/account`.
public final class SQLiteLedgerDatabase: LedgerDatabase, Sendable {
    // GRDB's queues are thread-safe (and `Sendable`), the turns actors.
    private let queue: DatabaseQueue
    private let turn = TransactionTurn()
    private let readers: [DatabaseQueue]
    private let readerTurn: TransactionTurn
    /// Seconds a transaction waits for another process's write lock.
    public let busyTimeout: Double
    public var dialect: LedgerDialect { .sqlite }

    /// Opens (creating if needed) the ledger at `path`, with `readers`
    /// reader connections.
    public init(path: String, busyTimeout: Double = 30, readers readerCount: Int = 4) throws(CloudStorageError) {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        // The transaction is opened and closed by explicit statements
        // across several accesses (see `transaction(_:)`); GRDB's check
        // for a transaction left open is for code that forgets one.
        configuration.allowsUnsafeTransactions = true
        configuration.journalMode = .wal
        self.busyTimeout = busyTimeout
        // Readers open after the writer made the file WAL; `query_only`
        // makes a write slipped onto one an error, not a second writer.
        var readerConfiguration = configuration
        readerConfiguration.journalMode = .default
        readerConfiguration.prepareDatabase { db in try db.execute(sql: "PRAGMA query_only = 1") }
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
            readers = try (0..<max(1, readerCount)).map { _ in try DatabaseQueue(path: path, configuration: readerConfiguration) }
        } catch {
            throw Self.storageError(error, "open the ledger \(path)")
        }
        readerTurn = TransactionTurn(connections: readers.count)
    }

    public func transaction<Result: Sendable>(
        _ body: @Sendable (any LedgerTransaction) async throws(CloudStorageError) -> Result
    ) async throws(CloudStorageError) -> Result {
        let connection = await turn.take()
        do throws(CloudStorageError) {
            let result = try await Self.run(body, on: SQLiteLedgerTransaction(queue: queue), begin: "BEGIN IMMEDIATE")
            await turn.pass(connection)
            return result
        } catch {
            await turn.pass(connection)
            throw error
        }
    }

    public func read<Result: Sendable>(
        _ body: @Sendable (any LedgerTransaction) async throws(CloudStorageError) -> Result
    ) async throws(CloudStorageError) -> Result {
        let connection = await readerTurn.take()
        do throws(CloudStorageError) {
            let result = try await Self.run(body, on: SQLiteLedgerTransaction(queue: readers[connection]), begin: "BEGIN DEFERRED")
            await readerTurn.pass(connection)
            return result
        } catch {
            await readerTurn.pass(connection)
            throw error
        }
    }

    /// `begin`, the body, `COMMIT`; a body that throws is rolled back.
    private static func run<Result: Sendable>(
        _ body: @Sendable (any LedgerTransaction) async throws(CloudStorageError) -> Result,
        on transaction: SQLiteLedgerTransaction, begin: String
    ) async throws(CloudStorageError) -> Result {
        try await transaction.run(begin)
        do throws(CloudStorageError) {
            let result = try await body(transaction)
            try await transaction.run("COMMIT")
            return result
        } catch {
            transaction.rollBack()
            throw error
        }
    }

    public func close() async {
        for reader in readers { try? reader.close() }
        try? queue.close()
    }

    static func storageError(_ error: any Error, _ operation: String) -> CloudStorageError {
        guard let error = error as? DatabaseError else {
            return CloudStorageError(.io, operation, "\(error)", underlying: error)
        }
        let code: CloudStorageError.Code = switch error.resultCode {
        case .SQLITE_FULL: .full
        case .SQLITE_CONSTRAINT: .constraint
        case .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_CANTOPEN: .unavailable
        case .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_AUTH: .refused
        default: .io
        }
        return CloudStorageError(code, operation, error.message ?? "\(error.resultCode)", underlying: error)
    }
}

/// The statements of one SQLite transaction.
struct SQLiteLedgerTransaction: LedgerTransaction {
    let queue: DatabaseQueue

    func run(_ sql: String) async throws(CloudStorageError) {
        try await execute(sql, [])
    }

    /// Rolls the transaction back, synchronously: GRDB's asynchronous
    /// accesses give up when the task is cancelled, and a rollback that gave
    /// up would leave the transaction open under the next one.
    func rollBack() {
        try? queue.writeWithoutTransaction { db in
            if db.isInsideTransaction { try db.execute(sql: "ROLLBACK") }
        }
    }

    @discardableResult
    func execute(_ sql: String, _ arguments: [LedgerValue]) async throws(CloudStorageError) -> [LedgerRow] {
        let bindings = StatementArguments(arguments.map(\.databaseValue))
        do {
            return try await queue.writeWithoutTransaction { db in
                try Row.fetchAll(db, sql: sql, arguments: bindings).map { row in
                    (0..<row.count).map { LedgerValue(row[$0] as DatabaseValue) }
                }
            }
        } catch {
            throw SQLiteLedgerDatabase.storageError(error, String(sql.prefix(60)))
        }
    }
}

extension LedgerValue {
    var databaseValue: DatabaseValue {
        switch self {
        case .integer(let value): value.databaseValue
        case .text(let value): value.databaseValue
        case .blob(let value): Data(value).databaseValue
        case .null: .null
        }
    }

    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let value): self = .integer(value)
        case .double(let value): self = .integer(Int64(value))
        case .string(let value): self = .text(value)
        case .blob(let value): self = .blob([UInt8](value))
        }
    }
}
