import Logging
import PostgresNIO

/// The ledger in PostgreSQL, through postgres-nio: the distributed store's
/// engine, shared by any number of server processes.
///
/// - A `PostgresClient` (a connection pool) runs in a task of its own
///   from ``init(configuration:logger:)`` until ``close()``.
/// - ``read(_:)`` is the same with `BEGIN ISOLATION LEVEL REPEATABLE READ
///   READ ONLY`: one snapshot, no lock.
/// - One ``transaction(_:)`` leases one connection and runs `BEGIN
///   ISOLATION LEVEL …` (``PostgresLedgerConfiguration/isolationLevel``,
///   `READ COMMITTED` unless set), the body's statements, then `COMMIT`; a
///   body that throws gets `ROLLBACK`.
/// - When the server aborts the transaction for a serialization failure
///   (SQLSTATE 40001) or a deadlock (40P01), the whole body runs again,
///   up to ``PostgresLedgerConfiguration/maximumRetries`` times, after a
///   growing, jittered pause so the conflicting transactions do not meet
///   again in step.
/// - Statements use `?` placeholders, rewritten to `$1`, `$2`… (see
///   ``LedgerTransaction``); values travel in binary, integers as `BIGINT`.
/// - Every failure is a ``CloudStorageError``: a server that cannot be
///   reached is ``CloudStorageError/Code/unavailable`` with `host:port` in
///   the detail, a wrong password ``CloudStorageError/Code/refused``, a
///   unique violation ``CloudStorageError/Code/constraint``, a full disk
///   ``CloudStorageError/Code/full``.
///
/// The pool on its own retries a refused connection for a minute before
/// failing a waiting transaction; so while a transaction waits for a
/// connection, this type opens one itself, and fails the transaction at
/// once with that connection's error when the server is down or refuses
/// the credentials.
public final class PostgresLedgerDatabase: LedgerDatabase {
    public let dialect = LedgerDialect.postgres
    public let configuration: PostgresLedgerConfiguration
    private let client: PostgresClient
    private let runner: Task<Void, Never>
    private let logger: Logger

    /// Starts the pool; no connection is opened before the first
    /// transaction.
    public init(configuration: PostgresLedgerConfiguration,
                logger: Logger = Logger(label: "sandbox.cloud.ledger.postgres")) {
        self.configuration = configuration
        self.logger = logger
        var clientConfiguration = PostgresClient.Configuration(
            host: configuration.host, port: configuration.port, username: configuration.user,
            password: configuration.password, database: configuration.database, tls: Self.clientTLS(configuration.tls))
        clientConfiguration.options.maximumConnections = max(1, configuration.poolSize)
        clientConfiguration.options.connectTimeout = configuration.connectTimeout
        let client = PostgresClient(configuration: clientConfiguration, backgroundLogger: logger)
        self.client = client
        runner = Task { await client.run() }
    }

    deinit { runner.cancel() }

    /// Closes the pool's connections and waits until they are closed.
    /// Transactions started afterwards fail as
    /// ``CloudStorageError/Code/unavailable``.
    public func close() async {
        runner.cancel()
        await runner.value
    }

    public func transaction<Result: Sendable>(
        _ body: @Sendable (any LedgerTransaction) async throws(CloudStorageError) -> Result
    ) async throws(CloudStorageError) -> Result {
        try await retrying(body, begin: "BEGIN ISOLATION LEVEL \(configuration.isolationLevel.rawValue)")
    }

    /// Reads in one snapshot (`REPEATABLE READ`), locking nothing: MVCC
    /// never makes it wait for a writer.
    public func read<Result: Sendable>(
        _ body: @Sendable (any LedgerTransaction) async throws(CloudStorageError) -> Result
    ) async throws(CloudStorageError) -> Result {
        try await retrying(body, begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
    }

    /// Runs `body` after `begin`, again after a conflict while retries are left.
    private func retrying<Result: Sendable>(
        _ body: @Sendable (any LedgerTransaction) async throws(CloudStorageError) -> Result, begin: String
    ) async throws(CloudStorageError) -> Result {
        var retries = 0
        while true {
            switch await attempt(body, begin: begin) {
            case .committed(let result):
                return result
            case .failed(let error):
                throw error
            case .conflict(let error):
                guard retries < configuration.maximumRetries else {
                    throw CloudStorageError(.unavailable, error.operation,
                                            "\(error.detail); still conflicting after \(retries) retries")
                }
                retries += 1
                logger.debug("retrying a transaction", metadata: ["retry": "\(retries)", "reason": "\(error)"])
                do {
                    try await Task.sleep(for: Self.pause(beforeRetry: retries))
                } catch {
                    throw CloudStorageError(.unavailable, "transaction", "cancelled while waiting to retry")
                }
            }
        }
    }

    /// How one run of a transaction's body ended.
    private enum Attempt<Result: Sendable>: Sendable {
        case committed(Result)
        /// The server aborted it for a conflict; run it again.
        case conflict(CloudStorageError)
        case failed(CloudStorageError)
    }

    /// One run: lease a connection, `BEGIN`, the body, `COMMIT`.
    private func attempt<Result: Sendable>(
        _ body: @Sendable (any LedgerTransaction) async throws(CloudStorageError) -> Result, begin: String
    ) async -> Attempt<Result> {
        let lease = LeaseState()
        do {
            return try await failingWhenUnreachable(lease) {
                try await self.client.withConnection { connection in
                    await lease.markLeased()
                    return await self.run(body, on: connection, begin: begin)
                }
            }
        } catch {
            return .failed(PostgresFailure(error, operation: PostgresFailure.connecting, endpoint: configuration.endpoint).error)
        }
    }

    private func run<Result: Sendable>(
        _ body: @Sendable (any LedgerTransaction) async throws(CloudStorageError) -> Result,
        on connection: PostgresConnection, begin: String
    ) async -> Attempt<Result> {
        let transaction = PostgresLedgerTransaction(connection: connection, logger: logger, endpoint: configuration.endpoint)
        /// The outcome of a failure: when the server aborted the
        /// transaction for a conflict, a retry (whatever the body made of
        /// the error); otherwise `error` is final.
        func failed(_ error: CloudStorageError) -> Attempt<Result> {
            if let failure = transaction.firstFailure, failure.isRetryable { return .conflict(failure.error) }
            return .failed(error)
        }
        do {
            try await transaction.control(begin)
        } catch {
            return .failed(error)
        }
        let result: Result
        do {
            result = try await body(transaction)
        } catch {
            await transaction.rollBack()
            return failed(error)
        }
        if let failure = transaction.firstFailure {
            // The body caught a failed statement and went on; PostgreSQL
            // would answer COMMIT with a silent ROLLBACK.
            await transaction.rollBack()
            return failed(failure.error)
        }
        do {
            // A failed COMMIT (a serializable conflict found at the end)
            // has already ended the transaction on the server.
            try await transaction.control("COMMIT")
        } catch {
            return failed(error)
        }
        return .committed(result)
    }

    /// The pause before retry number `retry` (1, 2…): 10 ms doubling up to
    /// 320 ms, times a random factor in 0.5…1.5.
    static func pause(beforeRetry retry: Int) -> Duration {
        let base = 10 * (1 << min(max(retry - 1, 0), 5))
        return .microseconds(Int.random(in: base * 500...base * 1500))
    }

    private static func clientTLS(_ mode: PostgresLedgerConfiguration.TLSMode) -> PostgresClient.Configuration.TLS {
        switch mode {
        case .disable: .disable
        case .prefer: .prefer(.makeClientConfiguration())
        case .require: .require(.makeClientConfiguration())
        }
    }
}

// MARK: - Failing fast when the server cannot be reached

extension PostgresLedgerDatabase {
    /// Whether a transaction has its connection yet.
    private actor LeaseState {
        private(set) var isLeased = false
        func markLeased() { isLeased = true }
    }

    /// Runs `operation`, which starts by leasing a connection; while it
    /// has none, opens a connection of its own now and then, and throws
    /// that connection's failure (the operation is cancelled) when the
    /// server cannot be reached or refuses the credentials. A busy pool
    /// whose server answers just goes on waiting.
    private func failingWhenUnreachable<Value: Sendable>(
        _ lease: LeaseState, _ operation: @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withoutActuallyEscaping(operation) { operation in
            try await withThrowingTaskGroup(of: Value?.self) { group in
                group.addTask { try await operation() }
                group.addTask {
                    try await self.watchReachability(lease)
                    return nil
                }
                while let finished = try await group.next() {
                    if let value = finished {
                        group.cancelAll()
                        return value
                    }
                }
                // The operation's task always returns a value or throws.
                throw CloudStorageError(.protocolError, "connect", "the transaction ended without an outcome")
            }
        }
    }

    /// Returns once the transaction holds a connection; throws when a
    /// probe connection fails in a way waiting cannot mend.
    private func watchReachability(_ lease: LeaseState) async throws {
        // The first probe comes soon: on loopback a healthy pool leases
        // within milliseconds. Then less and less often, so a saturated
        // pool is not crowded by probes.
        var delay = Duration.milliseconds(150)
        while true {
            try await Task.sleep(for: delay)
            if await lease.isLeased { return }
            if let failure = await probe(), await !lease.isLeased { throw failure.error }
            delay = min(delay * 4, .seconds(5))
        }
    }

    /// Opens and closes one connection outside the pool: nil when the
    /// server let it in or is merely busy (too many connections, starting
    /// up), the failure otherwise.
    private func probe() async -> PostgresFailure? {
        do {
            var connectionConfiguration = PostgresConnection.Configuration(
                host: configuration.host, port: configuration.port, username: configuration.user,
                password: configuration.password, database: configuration.database, tls: .disable)
            switch configuration.tls {
            case .disable: break
            case .prefer: connectionConfiguration.tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case .require: connectionConfiguration.tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
            let (seconds, attoseconds) = configuration.connectTimeout.components
            connectionConfiguration.options.connectTimeout = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
            let connection = try await PostgresConnection.connect(configuration: connectionConfiguration, id: 0, logger: logger)
            try? await connection.close()
            return nil
        } catch is CancellationError {
            return nil
        } catch {
            let failure = PostgresFailure(error, operation: PostgresFailure.connecting, endpoint: configuration.endpoint)
            switch failure.sqlState {
            case "53300", "57P03": return nil  // too_many_connections, cannot_connect_now
            default: return failure
            }
        }
    }
}
