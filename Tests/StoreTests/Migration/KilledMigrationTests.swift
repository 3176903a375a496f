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

    /// CoreDataMigrationTests' version-1.0.0 store grown to 131,072 rows.
    static func makeLargeChainStore(in directory: TemporaryDirectory) throws -> String {
        let path = try MigrationFixtures.copy(MigrationFixtures.migrationTestStores[0], into: directory, as: "chain.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            for _ in 0..<17 {
                let count = try Int.fetchOne(db, sql: "SELECT max(Z_PK) FROM ZBASICENTITY") ?? 0
                try db.execute(sql: """
                    INSERT INTO ZBASICENTITY (Z_PK, Z_ENT, Z_OPT, ZV1_0_0_NAME)
                    SELECT Z_PK + ?, Z_ENT, Z_OPT, ZV1_0_0_NAME || '-' || Z_PK FROM ZBASICENTITY
                    """, arguments: [count])
            }
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT max(Z_PK) FROM ZBASICENTITY)")
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

    static func start(_ worker: URL, store: String, models: [String], in directory: TemporaryDirectory, label: String) throws -> Run {
        let output = directory.file("out-\(label)")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = Process()
        process.executableURL = worker
        process.arguments = [store] + models.map(MigrationFixtures.modelPath)
        process.standardOutput = try FileHandle(forWritingTo: output)
        try process.run()
        return Run(process: process, output: output)
    }

    static func waitForLine(_ prefix: String, in run: Run, timeout: Duration = .seconds(120)) async throws -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        func printed() -> Bool {
            let text = (try? String(contentsOf: run.output, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").contains(where: { $0.hasPrefix(prefix) })
        }
        while clock.now < deadline {
            if printed() { return true }
            // Read once more after it ended: on a loaded machine this task
            // may be paused between its read and this check for longer than
            // the whole migration takes.
            if !run.process.isRunning { return printed() }
            try await Task.sleep(for: .milliseconds(1))
        }
        return printed()
    }

    /// A migration of `template` through `modelFiles`, killed `runs` times
    /// at random moments: each time the store is whole at the first version
    /// or the last, never between, and a relaunch finishes the migration.
    func killRepeatedly(template: String, modelFiles: [String], runs: Int, seed: UInt64, label: String,
                        in directory: TemporaryDirectory, keys: (String, ObjectModel) throws -> Set<String>) async throws {
        let worker = try #require(BuiltExecutable.locate("store-migration-worker"), "store-migration-worker was not built")
        let models = try modelFiles.map(MigrationFixtures.model)
        let (first, last) = (try #require(models.first), try #require(models.last))
        let originalSchema = try MigrationFixtures.schema(ofStore: template)
        let originalKeys = try keys(template, first)
        let uuid = try MigrationFixtures.bookkeeping(template).uuid

        // One whole run, to know how long the migration takes.
        let timed = directory.path("timed-\(label).sqlite")
        try FileManager.default.copyItem(atPath: template, toPath: timed)
        let whole = try Self.start(worker, store: timed, models: modelFiles, in: directory, label: "timed-\(label)")
        #expect(whole.process.waitForExit().status == 0)
        // As the worker measured it: a loaded machine may delay this process's own clock reading.
        let done = try String(contentsOf: whole.output, encoding: .utf8).split(separator: "\n").first { $0.hasPrefix("done ") }
        let seconds = try #require(done?.split(separator: " ").last.flatMap { Double($0) })
        let duration = Duration.seconds(seconds)
        print("migration of \(originalKeys.count) rows (\(label)): \(duration)")

        var generator = SeededGenerator(seed: seed)
        var outcomes: [String: Int] = [:]
        for index in 0..<runs {
            let store = directory.path("killed-\(label)-\(index).sqlite")
            try FileManager.default.copyItem(atPath: template, toPath: store)
            let run = try Self.start(worker, store: store, models: modelFiles, in: directory, label: "\(label)-\(index)")
            #expect(try await Self.waitForLine("ready", in: run))
            // Spread over the whole migration and past it (a loaded machine slows the killed runs).
            let fraction = Double(Int.random(in: 0...2500, using: &generator)) / 1000
            try await Task.sleep(for: duration * fraction)
            kill(run.process.processIdentifier, SIGKILL)
            run.process.waitForExit()

            // Opening read-write first lets SQLite roll back a hot journal or replay its WAL.
            try Self.recover(store)
            let hashes = try MigrationFixtures.bookkeeping(store).metadata.versionHashes
            if hashes == first.versionHashes {
                outcomes["old", default: 0] += 1
                #expect(try MigrationFixtures.schema(ofStore: store) == originalSchema)
                #expect(try keys(store, first) == originalKeys)
                // The next launch migrates it.
                let rerun = try Self.start(worker, store: store, models: modelFiles, in: directory, label: "\(label)-\(index)-again")
                #expect(rerun.process.waitForExit().status == 0)
            } else {
                #expect(hashes == last.versionHashes)
                outcomes["new", default: 0] += 1
            }
            try MigratedStoreCheck.verifyBookkeeping(store, model: last, uuid: uuid)
            #expect(try keys(store, last) == originalKeys)
        }
        print("killed migrations (\(label)): \(outcomes)")
        #expect(outcomes.values.reduce(0, +) == runs)
    }

    @Test("a migration of 128,128 Posts killed at random moments leaves the old or the new version, whole",
          arguments: [false, true])
    func killedAtRandomMoments(walMode: Bool) async throws {
        let directory = try TemporaryDirectory("migration-kill")
        let template = try Self.makeLargeStore(in: directory, walMode: walMode)
        #expect(try Self.postKeys(template, model: MigrationFixtures.model(MigrationFixtures.example[0])).count == 128_128)
        try await killRepeatedly(template: template, modelFiles: Array(MigrationFixtures.example[0...1]), runs: 6,
                                 seed: walMode ? 16 : 61, label: walMode ? "WAL" : "rollback journal", in: directory) { path, model in
            try Self.postKeys(path, model: model)
        }
    }

    /// The five CoreDataMigrationTests versions in one transaction: a kill
    /// in any of the four steps leaves version 1.0.0, never 1.1.0 to 1.2.0.
    @Test("a chain of four steps over 131,072 rows killed at random moments leaves the first or the last version")
    func killedDuringAChain() async throws {
        let directory = try TemporaryDirectory("migration-kill-chain")
        let template = try Self.makeLargeChainStore(in: directory)
        try await killRepeatedly(template: template, modelFiles: MigrationFixtures.migrationTests, runs: 5, seed: 5,
                                 label: "chain of four", in: directory) { path, model in
            let objects = try PersistentStore.openReadOnly(atPath: path, model: model).objects(of: "BasicEntity")
            return Set(objects.map { "\($0.objectID.primaryKey) \($0.values.values.first.map { "\($0)" } ?? "")" })
        }
    }
}
