import Logging
import PostgresNIO

/// One transaction of ``PostgresLedgerDatabase``: the statements of one
/// `BEGIN` … `COMMIT` on one leased connection.
///
/// PostgreSQL aborts a transaction at its first failed statement and
/// refuses every later one (SQLSTATE 25P02), so this object remembers the
/// first failure: later statements fail with it at once, and
/// ``PostgresLedgerDatabase`` rolls back (and retries, for a conflict)
/// even when the body caught the error and returned. Ledger SQL avoids
/// expected failures instead (`INSERT … ON CONFLICT DO NOTHING`).
final class PostgresLedgerTransaction: LedgerTransaction {
    private let connection: PostgresConnection
    private let logger: Logger
    private let endpoint: String
    /// The first statement that failed in this transaction, if any.
    private(set) var firstFailure: PostgresFailure?

    init(connection: PostgresConnection, logger: Logger, endpoint: String) {
        self.connection = connection
        self.logger = logger
        self.endpoint = endpoint
    }

    func execute(_ sql: String, _ arguments: [LedgerValue]) async throws(CloudStorageError) -> [LedgerRow] {
        let operation = Self.operationName(sql)
        if let firstFailure {
            throw CloudStorageError(firstFailure.error.code, operation,
                                    "not run: the transaction was aborted by an earlier failure, \(firstFailure.error)")
        }
        let (text, placeholders) = PostgresPlaceholders.rewrite(sql)
        guard placeholders == arguments.count else {
            throw CloudStorageError(.protocolError, operation,
                                    "the statement has \(placeholders) placeholders but \(arguments.count) arguments")
        }
        let rows: [PostgresRow]
        do {
            let query = PostgresQuery(unsafeSQL: text, binds: LedgerValue.postgresBindings(arguments))
            // Collected before decoding, so a cell that fails to decode
            // never leaves a half-read result on the connection.
            rows = try await connection.query(query, logger: logger).collect()
        } catch {
            let failure = PostgresFailure(error, operation: operation, endpoint: endpoint)
            firstFailure = failure
            throw failure.error
        }
        var result: [LedgerRow] = []
        result.reserveCapacity(rows.count)
        for row in rows {
            var values: LedgerRow = []
            values.reserveCapacity(row.count)
            for cell in row { values.append(try LedgerValue(postgresCell: cell, operation: operation)) }
            result.append(values)
        }
        return result
    }

    /// Runs a statement of the transaction's own (`BEGIN`, `COMMIT`),
    /// recording a failure as ``execute(_:_:)`` does.
    func control(_ sql: String) async throws(CloudStorageError) {
        do {
            _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).collect()
        } catch {
            let failure = PostgresFailure(error, operation: sql, endpoint: endpoint)
            firstFailure = failure
            throw failure.error
        }
    }

    /// Ends the transaction without its changes. A failure here means the
    /// connection is broken, so it is closed and the pool replaces it,
    /// rather than handing the next transaction a connection in an
    /// unknown state.
    func rollBack() async {
        do {
            _ = try await connection.query("ROLLBACK", logger: logger).collect()
        } catch {
            logger.warning("ROLLBACK failed; closing the connection", metadata: ["error": "\(String(reflecting: error))"])
            try? await connection.close()
        }
    }

    /// The start of a statement, whitespace collapsed, for error
    /// messages: "SELECT used, quota FROM accounts WHERE id = ? FOR…".
    static func operationName(_ sql: String) -> String {
        let words = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return words.count <= 80 ? words : String(words.prefix(79)) + "…"
    }
}
