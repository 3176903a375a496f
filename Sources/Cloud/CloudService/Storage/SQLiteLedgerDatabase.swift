import Foundation
import GRDB

/// The embedded default's ledger engine: one SQLite file through GRDB.
///
/// Every transaction is `BEGIN IMMEDIATE`, which takes SQLite's write lock
/// at once: transactions exclude each other across every process that
/// opens the file (two server processes on one ledger behave as one), and
/// within one process they take turns on the connection. A process that
/// finds the lock taken waits up to ``busyTimeout`` seconds. The file is in
/// WAL mode, so readers in other processes are not blocked meanwhile.
public final class SQLiteLedgerDatabase: LedgerDatabase, @unchecked Sendable {
    // @unchecked: `queue` is GRDB's own thread-safe queue, and `turn` an actor.
    private let queue: DatabaseQueue
    private let turn = TransactionTurn()
    /// Seconds a transaction waits for another process's write lock.
    public let busyTimeout: Double
    public var dialect: LedgerDialect { .sqlite }

    /// Opens (creating if needed) the ledger at `path`.
    public init(path: String, busyTimeout: Double = 30) throws(CloudStorageError) {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        // The transaction is opened and closed by explicit statements
        // across several accesses (see `transaction(_:)`); GRDB's check
        // for a transaction left open is for code that forgets one.
        configuration.allowsUnsafeTransactions = true
        configuration.journalMode = .wal
        self.busyTimeout = busyTimeout
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw Self.storageError(error, "open the ledger \(path)")
        }
    }

    public func transaction<Result: Sendable>(
        _ body: @Sendable (any LedgerTransaction) async throws(CloudStorageError) -> Result
    ) async throws(CloudStorageError) -> Result {
        await turn.take()
        let transaction = SQLiteLedgerTransaction(queue: queue)
        do throws(CloudStorageError) {
            try await transaction.run("BEGIN IMMEDIATE")
            let result: Result
            do throws(CloudStorageError) {
                result = try await body(transaction)
                try await transaction.run("COMMIT")
            } catch {
                transaction.rollBack()
                throw error
            }
            await turn.pass()
            return result
        } catch {
            await turn.pass()
            throw error
        }
    }

    public func close() async {
        try? queue.close()
    }

    static func storageError(_ error: any Error, _ operation: String) -> CloudStorageError {
        guard let error = error as? DatabaseError else {
            return CloudStorageError(.io, operation, "\(error)")
        }
        let code: CloudStorageError.Code = switch error.resultCode {
        case .SQLITE_FULL: .full
        case .SQLITE_CONSTRAINT: .constraint
        case .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_CANTOPEN: .unavailable
        case .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_AUTH: .refused
        default: .io
        }
        return CloudStorageError(code, operation, error.message ?? "\(error.resultCode)")
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
