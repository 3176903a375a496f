@testable import CloudService
import CloudTestSupport
import Foundation
import Synchronization
import Testing

/// ``PostgresLedgerDatabase`` against a real PostgreSQL 15 (see
/// ``PrivatePostgres``), each test in a database of its own.
@Suite struct PostgresLedgerDatabaseTests {
    /// Runs `body` with a ledger on a new database, and closes it after.
    private func withLedger(
        _ adjust: (inout PostgresLedgerConfiguration) -> Void = { _ in },
        _ body: (PostgresLedgerDatabase, PrivatePostgres) async throws -> Void
    ) async throws {
        try await withPrivatePostgres { server in
            var configuration = try await server.makeDatabase()
            adjust(&configuration)
            let database = PostgresLedgerDatabase(configuration: configuration)
            do {
                try await body(database, server)
                await database.close()
            } catch {
                await database.close()
                throw error
            }
        }
    }

    @Test func passesTheSharedLedgerExercise() async throws {
        try await withLedger { database, _ in
            #expect(database.dialect == .postgres)
            try await exerciseLedgerDatabase(database)
        }
    }

    @Test func readsNarrowIntegersNumericSumsAndBooleansAsIntegers() async throws {
        try await withLedger { database, _ in
            let rows = try await database.transaction { tx throws(CloudStorageError) in
                try await tx.execute("CREATE TABLE sizes (size BIGINT)")
                try await tx.execute("INSERT INTO sizes VALUES (?), (?)", .integer(Int64(Int32.max)), .integer(Int64(Int32.max)))
                return try await tx.execute("""
                    SELECT 7::INT2, (-70000)::INT4, SUM(size), COUNT(*), EXISTS (SELECT 1 FROM sizes), NULL::BIGINT
                    FROM sizes
                    """)
            }
            #expect(rows == [[.integer(7), .integer(-70000), .integer(2 * Int64(Int32.max)), .integer(2), .integer(1), .null]])
        }
    }

    @Test func leavesQuestionMarksInLiteralsIdentifiersAndCommentsAlone() async throws {
        try await withLedger { database, _ in
            let rows = try await database.transaction { tx throws(CloudStorageError) in
                try await tx.execute("""
                    SELECT '?', 'it''s ?', E'\\'?', ? /* ? /* nested ? */ ? */, $$?$$, $tag$ ? $tag$, "?col" -- ?
                    FROM (SELECT 1 AS "?col") AS t WHERE 1 = ?
                    """, .text("first"), .integer(1))
            }
            #expect(rows == [[.text("?"), .text("it's ?"), .text("'?"), .text("first"), .text("?"), .text(" ? "), .integer(1)]])
        }
    }

    @Test func rewritesPlaceholdersInOrder() {
        let (sql, count) = PostgresPlaceholders.rewrite("UPDATE t SET a = ?, b = '?' WHERE c IN (?, ?) -- ?\nAND d = ?")
        #expect(sql == "UPDATE t SET a = $1, b = '?' WHERE c IN ($2, $3) -- ?\nAND d = $4")
        #expect(count == 4)
    }

    @Test func refusesAMismatchedArgumentCount() async throws {
        try await withLedger { database, _ in
            let error = await failure(of: database, "two placeholders ran with one argument") { tx throws(CloudStorageError) in
                try await tx.execute("SELECT ?, ?", .integer(1))
            }
            #expect(error?.code == .protocolError)
            #expect(error?.detail.contains("2 placeholders") == true)
        }
    }

    @Test func mapsServerErrorsToCodes() async throws {
        try await withLedger { database, _ in
            for (state, code) in [("53100", CloudStorageError.Code.full), ("23505", .constraint), ("42501", .refused),
                                  ("08006", .unavailable)] {
                let error = await failure(of: database, "SQLSTATE \(state) was not an error") { tx throws(CloudStorageError) in
                    try await tx.execute("DO $$ BEGIN RAISE EXCEPTION 'forced' USING ERRCODE = '\(state)'; END $$")
                }
                #expect(error?.code == code, "SQLSTATE \(state): \(String(describing: error))")
                #expect(error?.detail.contains(state) == true)
            }
            let error = await failure(of: database, "a syntax error was accepted") { tx throws(CloudStorageError) in
                try await tx.execute("SELEKT 1")
            }
            #expect(error?.code == .protocolError)
            #expect(error?.detail.contains("42601") == true)
        }
    }

    /// A body that catches a failed statement and returns anyway is still
    /// rolled back: PostgreSQL aborted the transaction at the failure.
    @Test func rollsBackWhenTheBodySwallowsAFailure() async throws {
        try await withLedger { database, _ in
            try await database.run("CREATE TABLE names (name TEXT UNIQUE)")
            let error = await failure(of: database, "a transaction with a failed statement committed") { tx throws(CloudStorageError) in
                try await tx.execute("INSERT INTO names VALUES (?)", .text("lost"))
                _ = try? await tx.execute("SELEKT")
                try await tx.execute("INSERT INTO names VALUES (?)", .text("never"))
            }
            #expect(error?.code == .protocolError)
            // The body's own error is the one returned, not the failure it
            // swallowed on the way.
            let thrown = CloudStorageError(.notFound, "body", "its own")
            let bodyError = await failure(of: database, "a body that threw committed") { tx throws(CloudStorageError) in
                try await tx.execute("INSERT INTO names VALUES (?)", .text("lost too"))
                _ = try? await tx.execute("SELEKT")
                throw thrown
            }
            #expect(bodyError == thrown)
            let count = try await database.run("SELECT COUNT(*) FROM names")
            #expect(count == [[.integer(0)]])
        }
    }

    /// The first run of the body hits a serialization failure (forced
    /// with `RAISE … ERRCODE '40001'`); the second commits, and the caller
    /// sees only the success.
    @Test func retriesAForcedSerializationFailure() async throws {
        try await withLedger { database, _ in
            try await database.run("CREATE TABLE log (attempt BIGINT)")
            let attempts = Tally()
            let result = try await database.transaction { tx throws(CloudStorageError) in
                let attempt = attempts.next()
                try await tx.execute("INSERT INTO log VALUES (?)", .integer(Int64(attempt)))
                if attempt == 1 {
                    try await tx.execute("DO $$ BEGIN RAISE EXCEPTION 'conflict' USING ERRCODE = '40001'; END $$")
                }
                return attempt
            }
            #expect(result == 2)
            let rows = try await database.run("SELECT attempt FROM log")
            #expect(rows == [[.integer(2)]], "the first attempt's insert was rolled back")

            // A deadlock (40P01) is retried the same way, even when the body
            // catches the error itself.
            let deadlocks = Tally()
            try await database.transaction { tx throws(CloudStorageError) in
                if deadlocks.next() == 1 {
                    _ = try? await tx.execute("DO $$ BEGIN RAISE EXCEPTION 'deadlock' USING ERRCODE = '40P01'; END $$")
                }
            }
            #expect(deadlocks.value == 2)
        }
    }

    @Test func givesUpAfterTheConfiguredRetries() async throws {
        try await withLedger({ $0.maximumRetries = 3 }) { database, _ in
            let attempts = Tally()
            let error = await failure(of: database, "a transaction that always conflicts succeeded") { tx throws(CloudStorageError) in
                attempts.next()
                try await tx.execute("DO $$ BEGIN RAISE EXCEPTION 'conflict' USING ERRCODE = '40001'; END $$")
            }
            #expect(error?.code == .unavailable)
            #expect(error?.detail.contains("40001") == true)
            #expect(error?.detail.contains("3 retries") == true)
            #expect(attempts.value == 4)
        }
    }

    /// Write skew under SERIALIZABLE: two transactions each count the rows
    /// and insert the count plus one, both reading before either writes.
    /// PostgreSQL aborts one (40001); its rerun sees the other's row, so
    /// the values are 1 and 2, as in some serial order.
    @Test func retriesARealSerializationConflict() async throws {
        try await withLedger({ $0.isolationLevel = .serializable }) { database, _ in
            try await database.run("CREATE TABLE items (value BIGINT)")
            let bothRead = Rendezvous(parties: 2)
            let runs = Tally()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        let ownRuns = Tally()
                        try await database.transaction { tx throws(CloudStorageError) in
                            runs.next()
                            let count = try await tx.execute("SELECT COUNT(*) FROM items").first?.first?.integer ?? -1
                            if ownRuns.next() == 1 { await bothRead.arrive() }
                            try await tx.execute("INSERT INTO items VALUES (?)", .integer(count + 1))
                        }
                    }
                }
                try await group.waitForAll()
            }
            let values = try await database.run("SELECT value FROM items ORDER BY value")
            #expect(values == [[.integer(1)], [.integer(2)]])
            #expect(runs.value >= 3, "one transaction ran again")
        }
    }

    @Test func eightTasksIncrementALockedCounterToExactlyOneHundred() async throws {
        try await withLedger({ $0.poolSize = 4 }) { database, _ in
            try await database.transaction { tx throws(CloudStorageError) in
                try await tx.execute("CREATE TABLE exercise_counter (id BIGINT PRIMARY KEY, value BIGINT NOT NULL)")
                try await tx.execute("INSERT INTO exercise_counter VALUES (1, 0)")
            }
            try await exerciseLockedIncrements(database, tasks: 8, increments: 100)
            let value = try await database.run("SELECT value FROM exercise_counter")
            #expect(value == [[.integer(100)]])
        }
    }

    @Test func refusesAWrongPassword() async throws {
        try await withPrivatePostgres { server in
            let database = PostgresLedgerDatabase(configuration: server.configuration(database: "postgres", password: "wrong"))
            let error = await failure(of: database, "a wrong password was accepted") { tx throws(CloudStorageError) in
                try await tx.execute("SELECT 1")
            }
            #expect(error?.code == .refused, "\(String(describing: error))")
            // The server's own words, from the probe connection: the pool
            // would only give up after a minute, without them.
            #expect(error?.detail.contains("28P01") == true, "\(String(describing: error))")
            await database.close()
        }
    }

    @Test func reportsAClosedPortAsUnavailableQuickly() async throws {
        let port = try PrivatePostgres.freePort()
        let database = PostgresLedgerDatabase(configuration: PostgresLedgerConfiguration(
            host: "127.0.0.1", port: port, user: "ledger", password: "secret", database: "ledger"))
        let error = await failure(of: database, "a closed port answered") { tx throws(CloudStorageError) in
            try await tx.execute("SELECT 1")
        }
        #expect(error?.code == .unavailable, "\(String(describing: error))")
        // "cannot connect to" is the probe's failure (about 0.2 s on its
        // own), not the pool's giving up after a minute. Not a wall-clock
        // bound: in a full `swift test` on 2 cores, other suites starve this
        // process's timers for minutes.
        #expect(error?.detail.contains("cannot connect to 127.0.0.1:\(port)") == true, "\(String(describing: error))")
        await database.close()
    }

    @Test func failsTransactionsAfterClose() async throws {
        try await withLedger { database, _ in
            try await database.run("SELECT 1")
            await database.close()
            let error = await failure(of: database, "a closed ledger ran a transaction") { tx throws(CloudStorageError) in
                try await tx.execute("SELECT 1")
            }
            #expect(error?.code == .unavailable, "\(String(describing: error))")
        }
    }
}

/// Waits until `parties` tasks have arrived, then lets them all go.
private actor Rendezvous {
    private let parties: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(parties: Int) { self.parties = parties }

    func arrive() async {
        if waiting.count + 1 == parties {
            waiting.forEach { $0.resume() }
            waiting.removeAll()
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }
}

/// A counter the tests' transaction bodies share (they are `@Sendable`).
private final class Tally: Sendable {
    private let count = Atomic<Int>(0)

    /// Counts one more and returns the new count (1 the first time).
    @discardableResult
    func next() -> Int { count.add(1, ordering: .relaxed).newValue }

    var value: Int { count.load(ordering: .relaxed) }
}
