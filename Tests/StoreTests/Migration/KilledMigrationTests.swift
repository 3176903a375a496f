import Foundation
import GRDB
import PredicateFormat
import Store
import TestSupport
import Testing

/// A migration killed with SIGKILL at random moments leaves the old version
/// or the new one, each whole: never half of each.
@Suite("Migrations killed with SIGKILL", .serialized)
struct KilledMigrationTests {
    /// CoreDataMigration-Example's version-1 store grown to 128,128 Posts,
    /// so the migration's transaction lasts long enough to be hit.
    static func makeLargeStore(in directory: TemporaryDirectory, walMode: Bool) throws -> String {
        let path = try MigrationFixtures.copy("CoreDataMigration-Example__CoreDataMigration_Example_1.sqlite", into: directory,
                                              as: walMode ? "large-wal.sqlite" : "large.sqlite")
        let queue = try DatabaseQueue(path: path)
        if walMode { try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") } }
        try queue.write { db in
            for _ in 0..<7 {
                let count = try Int.fetchOne(db, sql: "SELECT max(Z_PK) FROM ZPOST") ?? 0
                try db.execute(sql: """
                    INSERT INTO ZPOST (Z_PK, Z_ENT, Z_OPT, ZCOLOR, ZDATE, ZPOSTID)
                    SELECT Z_PK + ?, Z_ENT, Z_OPT, ZCOLOR, ZDATE, ZPOSTID || '-' || ? FROM ZPOST
                    """, arguments: [count, count])
            }
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT max(Z_PK) FROM ZPOST) WHERE Z_NAME = 'Post'")
        }
        try queue.close()
        return path
    }

    /// Opens the store read-write once: SQLite rolls back a hot journal or replays its WAL.
    static func recover(_ path: String) throws {
        let queue = try DatabaseQueue(path: path)
        _ = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM Z_PRIMARYKEY") }
        try queue.close()
    }

    /// What survives of a Post in both versions: its key, ID and date.
    static func postKeys(_ path: String, model: ObjectModel) throws -> Set<String> {
        let posts = try PersistentStore.openReadOnly(atPath: path, model: model).objects(of: "Post")
        return Set(posts.map { "\($0.objectID.primaryKey) \($0["postID"]) \($0["date"])" })
    }

    struct Run {
        var process: Process
        var output: URL
    }

    static func start(_ worker: URL, store: String, in directory: TemporaryDirectory, label: String) throws -> Run {
        let models = Array(MigrationFixtures.example[0...1]).map(MigrationFixtures.modelPath)
        let output = directory.file("out-\(label)")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = Process()
        process.executableURL = worker
        process.arguments = [store] + models
        process.standardOutput = try FileHandle(forWritingTo: output)
        try process.run()
        return Run(process: process, output: output)
    }

    static func waitForLine(_ prefix: String, in run: Run, timeout: Duration = .seconds(120)) async throws -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            let text = (try? String(contentsOf: run.output, encoding: .utf8)) ?? ""
            if text.split(separator: "\n").contains(where: { $0.hasPrefix(prefix) }) { return true }
            if !run.process.isRunning { return false }
            try await Task.sleep(for: .milliseconds(1))
        }
        return false
    }

    @Test("a migration of 128,128 rows killed at random moments leaves the old or the new version, whole",
          arguments: [false, true])
    func killedAtRandomMoments(walMode: Bool) async throws {
        let worker = try #require(BuiltExecutable.locate("store-migration-worker"), "store-migration-worker was not built")
        let models = try Array(MigrationFixtures.example[0...1]).map(MigrationFixtures.model)
        let directory = try TemporaryDirectory("migration-kill")
        let template = try Self.makeLargeStore(in: directory, walMode: walMode)
        let originalSchema = try MigrationFixtures.schema(ofStore: template)
        let keys = try Self.postKeys(template, model: models[0])
        #expect(keys.count == 128_128)
        let uuid = try MigrationFixtures.bookkeeping(template).uuid

        // One whole run, to know how long the migration takes.
        let timed = directory.path("timed.sqlite")
        try FileManager.default.copyItem(atPath: template, toPath: timed)
        let first = try Self.start(worker, store: timed, in: directory, label: "timed")
        #expect(try await Self.waitForLine("ready", in: first))
        let clock = ContinuousClock()
        let started = clock.now
        first.process.waitUntilExit()
        let duration = clock.now - started
        #expect(first.process.terminationStatus == 0)
        print("migration of 128,128 Posts (\(walMode ? "WAL" : "rollback journal")): \(duration)")

        var generator = SeededGenerator(seed: walMode ? 16 : 61)
        var outcomes: [String: Int] = [:]
        for index in 0..<6 {
            let store = directory.path("killed-\(index).sqlite")
            try? FileManager.default.removeItem(atPath: store)
            try FileManager.default.copyItem(atPath: template, toPath: store)
            let run = try Self.start(worker, store: store, in: directory, label: "\(index)")
            #expect(try await Self.waitForLine("ready", in: run))
            // Spread over the whole migration, and past it.
            let fraction = Double(Int.random(in: 0...1600, using: &generator)) / 1000
            try await Task.sleep(for: duration * fraction)
            kill(run.process.processIdentifier, SIGKILL)
            run.process.waitUntilExit()

            // Opening read-write first lets SQLite roll back a hot journal or replay its WAL.
            try Self.recover(store)
            let hashes = try MigrationFixtures.bookkeeping(store).metadata.versionHashes
            if hashes == models[0].versionHashes {
                outcomes["old", default: 0] += 1
                #expect(try MigrationFixtures.schema(ofStore: store) == originalSchema)
                #expect(try Self.postKeys(store, model: models[0]) == keys)
                // The next launch migrates it.
                let rerun = try Self.start(worker, store: store, in: directory, label: "\(index)-again")
                rerun.process.waitUntilExit()
                #expect(rerun.process.terminationStatus == 0)
            } else {
                #expect(hashes == models[1].versionHashes)
                outcomes["new", default: 0] += 1
            }
            try MigrationCheck.verifyBookkeeping(store, model: models[1], uuid: uuid)
            #expect(try Self.postKeys(store, model: models[1]) == keys)
        }
        print("killed migrations (\(walMode ? "WAL" : "rollback journal")): \(outcomes)")
        #expect(outcomes.values.reduce(0, +) == 6)
    }
}
