import CloudService
import CloudTestSupport
import Foundation
import Testing
import TestSupport

/// The embedded ledger engine passes the same exercise as PostgreSQL's
/// (values, placeholders, RETURNING, ON CONFLICT, rollback, locked increments).
@Suite struct SQLiteLedgerDatabaseTests {
    @Test func passesTheExerciseBothEnginesShare() async throws {
        let temp = try TemporaryDirectory("sqlite-ledger")
        let database = try SQLiteLedgerDatabase(path: temp.path("ledger.sqlite"))
        try await exerciseLedgerDatabase(database)
        try await exerciseLockedIncrements(database, tasks: 8, increments: 100)
        await database.close()
    }

    @Test func transactionsOfTwoConnectionsExcludeEachOther() async throws {
        let temp = try TemporaryDirectory("sqlite-ledger-two")
        // A generous busy timeout: on a loaded machine the other
        // connection's transaction may hold the lock for seconds.
        let first = try SQLiteLedgerDatabase(path: temp.path("ledger.sqlite"), busyTimeout: 300)
        let second = try SQLiteLedgerDatabase(path: temp.path("ledger.sqlite"), busyTimeout: 300)
        try await first.transaction { tx throws(CloudStorageError) in
            try await tx.execute("CREATE TABLE counter (id BIGINT PRIMARY KEY, value BIGINT NOT NULL)")
            try await tx.execute("INSERT INTO counter (id, value) VALUES (1, 0)")
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for database in [first, second] {
                group.addTask {
                    for _ in 0..<25 {
                        try await database.transaction { tx throws(CloudStorageError) in
                            let value = try await tx.execute("SELECT value FROM counter WHERE id = 1").first?.first?.integer ?? -1
                            try await tx.execute("UPDATE counter SET value = ? WHERE id = 1", .integer(value + 1))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let total = try await first.transaction { tx throws(CloudStorageError) in
            try await tx.execute("SELECT value FROM counter WHERE id = 1").first?.first?.integer ?? -1
        }
        #expect(total == 50)
        await first.close()
        await second.close()
    }
}
