import CloudService
import Foundation
import Testing

/// What every ``LedgerDatabase`` must do, written once so the same checks
/// run on SQLite (the embedded default) and PostgreSQL: values of every
/// kind in and out, `?` placeholders, `RETURNING`, `ON CONFLICT DO
/// NOTHING`, rollback when the body throws, a unique violation as
/// ``CloudStorageError/Code/constraint``, and increments under the
/// account-row lock from concurrent tasks.
///
/// Needs an empty database (or at least one without tables named
/// `exercise_*`); it creates its own tables and leaves them behind.
/// Portable SQL only: the dialect supplies the blob type, the
/// auto-increment key and the lock suffix.
public func exerciseLedgerDatabase(_ database: any LedgerDatabase) async throws {
    try await createExerciseTables(database)
    try await exerciseValues(database)
    try await exercisePlaceholders(database)
    try await exerciseReturningAndConflicts(database)
    try await exerciseRollback(database)
    try await exerciseLockedIncrements(database, tasks: 8, increments: 100)
}

private func createExerciseTables(_ database: any LedgerDatabase) async throws {
    let dialect = database.dialect
    try await database.transaction { tx throws(CloudStorageError) in
        try await tx.execute("""
            CREATE TABLE exercise_values (id \(dialect.autoIncrementPrimaryKey),
                                          number BIGINT, words TEXT, bytes \(dialect.blobType))
            """)
        try await tx.execute("CREATE TABLE exercise_names (id \(dialect.autoIncrementPrimaryKey), name TEXT NOT NULL UNIQUE)")
        try await tx.execute("CREATE TABLE exercise_counter (id BIGINT PRIMARY KEY, value BIGINT NOT NULL)")
        try await tx.execute("INSERT INTO exercise_counter (id, value) VALUES (?, ?)", .integer(1), .integer(0))
    }
}

/// Every kind of value, the extremes of each, and null in every column.
private func exerciseValues(_ database: any LedgerDatabase) async throws {
    let rows: [[LedgerValue]] = [
        [.integer(0), .text(""), .blob([])],
        [.integer(Int64.max), .text("ünïcødé ✓ 🍏 'quoted' ? \"double\""), .blob(Array(0...255))],
        [.integer(Int64.min), .text(String(repeating: "x", count: 100_000)), .blob([0])],
        [.integer(-1), .text("tab\tnewline\n"), .blob(Array(repeating: 0xFF, count: 1 << 20))],
        [.null, .null, .null],
    ]
    let read = try await database.transaction { tx throws(CloudStorageError) in
        for row in rows {
            try await tx.execute("INSERT INTO exercise_values (number, words, bytes) VALUES (?, ?, ?)", row)
        }
        return try await tx.execute("SELECT number, words, bytes FROM exercise_values ORDER BY id")
    }
    #expect(read.count == rows.count)
    for (got, expected) in zip(read, rows) {
        #expect(got == expected, "\(got.map { "\($0)".prefix(60) }) != \(expected.map { "\($0)".prefix(60) })")
    }
    // The empty blob stays a blob, distinct from null.
    let emptyBlob = try await database.run("SELECT bytes FROM exercise_values WHERE number = ?", .integer(0))
    #expect(emptyBlob == [[.blob([])]])
    let nulls = try await database.run(
        "SELECT COUNT(*) FROM exercise_values WHERE number IS NULL AND words IS NULL AND bytes IS NULL")
    #expect(nulls == [[.integer(1)]])
}

/// Placeholders in the select list, WHERE, IN, LIMIT, arithmetic, and a
/// `?` inside a string literal that is not one.
private func exercisePlaceholders(_ database: any LedgerDatabase) async throws {
    let rows = try await database.transaction { tx throws(CloudStorageError) in
        try await tx.execute("DELETE FROM exercise_names")
        for name in ["a", "b", "c", "d", "e"] {
            try await tx.execute("INSERT INTO exercise_names (name) VALUES (?)", .text(name))
        }
        return try await tx.execute("""
            SELECT name, ? + 1, '?' FROM exercise_names
            WHERE name IN (?, ?, ?) AND name <> ? AND length(name) = ?
            ORDER BY name LIMIT ?
            """, .integer(41), .text("a"), .text("c"), .text("e"), .text("c"), .integer(1), .integer(5))
    }
    #expect(rows == [[.text("a"), .integer(42), .text("?")], [.text("e"), .integer(42), .text("?")]])
}

private func exerciseReturningAndConflicts(_ database: any LedgerDatabase) async throws {
    let (first, again, conflict, count) = try await database.transaction { tx throws(CloudStorageError) in
        let first = try await tx.execute("INSERT INTO exercise_names (name) VALUES (?) RETURNING id, name", .text("returning"))
        let again = try await tx.execute(
            "INSERT INTO exercise_names (name) VALUES (?) ON CONFLICT DO NOTHING RETURNING id", .text("returning"))
        let conflict = try await tx.execute(
            "INSERT INTO exercise_names (name) VALUES (?) ON CONFLICT (name) DO NOTHING", .text("returning"))
        let count = try await tx.execute("SELECT COUNT(*) FROM exercise_names WHERE name = ?", .text("returning"))
        return (first, again, conflict, count)
    }
    #expect(first.count == 1)
    #expect(first.first?.first?.integer != nil)
    #expect(first.first?.last == .text("returning"))
    #expect(again.isEmpty, "ON CONFLICT DO NOTHING returns no row")
    #expect(conflict.isEmpty)
    #expect(count == [[.integer(1)]])

    // Without ON CONFLICT, the duplicate is a constraint error, and the
    // transaction (its other insert too) is rolled back.
    let error = await failure(of: database, "a duplicate in a UNIQUE column was accepted") { tx throws(CloudStorageError) in
        try await tx.execute("INSERT INTO exercise_names (name) VALUES (?)", .text("kept out"))
        try await tx.execute("INSERT INTO exercise_names (name) VALUES (?)", .text("returning"))
    }
    #expect(error?.code == .constraint, "\(String(describing: error))")
    let keptOut = try await database.run("SELECT COUNT(*) FROM exercise_names WHERE name = ?", .text("kept out"))
    #expect(keptOut == [[.integer(0)]])
}

/// A body that throws after writing leaves nothing behind.
private func exerciseRollback(_ database: any LedgerDatabase) async throws {
    let thrown = CloudStorageError(.notFound, "exercise", "thrown by the body")
    let error = await failure(of: database, "the body's error was not returned") { tx throws(CloudStorageError) in
        try await tx.execute("INSERT INTO exercise_names (name) VALUES (?)", .text("rolled back"))
        try await tx.execute("UPDATE exercise_counter SET value = value + 1000 WHERE id = ?", .integer(1))
        throw thrown
    }
    #expect(error == thrown)
    let (names, counter) = try await database.transaction { tx throws(CloudStorageError) in
        (try await tx.execute("SELECT COUNT(*) FROM exercise_names WHERE name = ?", .text("rolled back")),
         try await tx.execute("SELECT value FROM exercise_counter WHERE id = ?", .integer(1)))
    }
    #expect(names == [[.integer(0)]])
    #expect(counter == [[.integer(0)]])
}

/// `increments` read-then-write transactions from `tasks` concurrent
/// tasks, each reading the counter under the row lock: none is lost.
public func exerciseLockedIncrements(_ database: any LedgerDatabase, tasks: Int, increments: Int) async throws {
    let suffix = database.dialect.lockAccountRowSuffix
    let before = try await database.transaction { tx throws(CloudStorageError) in
        try await tx.execute("SELECT value FROM exercise_counter WHERE id = ?", .integer(1))
    }.first?.first?.integer ?? -1
    try await withThrowingTaskGroup(of: Void.self) { group in
        for task in 0..<tasks {
            let share = increments / tasks + (task < increments % tasks ? 1 : 0)
            group.addTask {
                for _ in 0..<share {
                    try await database.transaction { tx throws(CloudStorageError) in
                        let rows = try await tx.execute("SELECT value FROM exercise_counter WHERE id = ? \(suffix)", .integer(1))
                        let value = rows.first?.first?.integer ?? 0
                        // Give the other tasks every chance to interleave.
                        await Task.yield()
                        try await tx.execute("UPDATE exercise_counter SET value = ? WHERE id = ?",
                                             .integer(value + 1), .integer(1))
                    }
                }
            }
        }
        try await group.waitForAll()
    }
    let after = try await database.run("SELECT value FROM exercise_counter WHERE id = ?", .integer(1))
    #expect(after == [[.integer(before + Int64(increments))]])
}

/// The error a transaction ends with; records an issue saying
/// `unexpectedSuccess` (and returns nil) when it commits instead.
public func failure(
    of database: any LedgerDatabase, _ unexpectedSuccess: Comment, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @Sendable (any LedgerTransaction) async throws(CloudStorageError) -> Void
) async -> CloudStorageError? {
    do throws(CloudStorageError) {
        try await database.transaction(body)
    } catch {
        return error
    }
    Issue.record(unexpectedSuccess, sourceLocation: sourceLocation)
    return nil
}

extension LedgerDatabase {
    /// One statement in a transaction of its own; its rows.
    @discardableResult
    public func run(_ sql: String, _ arguments: LedgerValue...) async throws(CloudStorageError) -> [LedgerRow] {
        try await transaction { tx throws(CloudStorageError) in try await tx.execute(sql, arguments) }
    }
}
