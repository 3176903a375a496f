import FileSystem
import Foundation
import GRDB
import PredicateFormat
import Store
import Testing
import TestSupport

/// A process killed with SIGKILL in the middle of its saves leaves each
/// save whole or absent, and another process sees the saves it made.
///
/// The writer is this very test binary, re-run with a filter that selects
/// ``saveWorker()`` and the store's path in its environment: a real
/// second process saving through ``ObjectContext``, with no helper
/// executable to build.
@Suite struct CrashSafetyTests {
    static let workerEnvironment = "STORE_CRASH_WORKER_PATH"
    static let workerStore = ProcessInfo.processInfo.environment[workerEnvironment]
    /// Large saves, so that a kill lands inside a transaction often.
    static let objectsPerSave = 2000

    /// The worker: saves batches of sections until it is killed.
    @Test(.enabled(if: workerStore != nil)) func saveWorker() throws {
        let path = try #require(Self.workerStore)
        let store = try PersistentStore.open(atPath: path, model: FixtureModels.postsAndSections)
        let context = ObjectContext(store: store)
        var batch = Int64(try store.count(of: "Section") / Self.objectsPerSave) + 1
        while true {
            let post = try context.insert("Post", values: ["postID": .string("batch \(batch)")])
            var sections: [ObjectID] = []
            for index in 0..<Self.objectsPerSave {
                sections.append(try context.insert("Section", values: [
                    "index": .integer(batch), "title": .string("section \(index) of batch \(batch)"),
                ]))
            }
            try context.setToMany("sections", of: post, to: sections)
            try context.save()
            batch += 1
        }
    }

    @Test func sigkillDuringSavesLeavesWholeSaves() async throws {
        let directory = try TemporaryDirectory("store-sigkill")
        let path = directory.path("store.sqlite")
        let store = try PersistentStore.create(atPath: path, model: FixtureModels.postsAndSections)
        let executable = URL(fileURLWithPath: try FileSystemPaths.readLink(atPath: "/proc/self/exe"))
        let observer = try StoreObserver(path: path)
        let commits = observer.commits()
        var commitsSeen = 0
        var iterator = commits.makeAsyncIterator()

        for round in 0..<3 {
            let worker = Process()
            worker.executableURL = executable
            worker.arguments = ["--testing-library", "swift-testing", "--filter", "saveWorker"]
            worker.environment = ProcessInfo.processInfo.environment.merging([Self.workerEnvironment: path]) { $1 }
            worker.standardOutput = FileHandle.nullDevice
            worker.standardError = FileHandle.nullDevice
            try worker.run()
            // Wait until the worker has saved at least once more, then kill it at a random moment.
            let before = try store.count(of: "Post")
            let deadline = Date().addingTimeInterval(60)
            while try store.count(of: "Post") <= before, Date() < deadline, worker.isRunning {
                try await Task.sleep(for: .milliseconds(20))
            }
            try await Task.sleep(for: .milliseconds(UInt64.random(in: 0...40) + UInt64(round) * 7))
            kill(worker.processIdentifier, SIGKILL)
            #expect(worker.waitForExit().wasSignalled, "round \(round): the worker ended by itself")

            // The other process's saves were seen as commits.
            if await iterator.next() != nil { commitsSeen += 1 }

            // Every save is whole: each post has all its sections, and keys stay below Z_MAX.
            let reader = try PersistentStore.open(atPath: path, model: FixtureModels.postsAndSections)
            let posts = try reader.objects(of: "Post")
            #expect(!posts.isEmpty)
            for post in posts {
                #expect(try reader.destinations(of: post.objectID, relationship: "sections").count == Self.objectsPerSave)
            }
            #expect(try reader.count(of: "Section") == posts.count * Self.objectsPerSave)
            let keys = try reader.primaryKeyRows()
            #expect(keys.first { $0.name == "Section" }?.maximumKey ?? 0 >= Int64(posts.count * Self.objectsPerSave))
        }
        #expect(commitsSeen == 3)

        // The store is sound and still takes saves after the kills.
        let context = ObjectContext(store: store)
        _ = try context.insert("Post", values: ["postID": .string("after")])
        try context.save()
        let check = try DatabaseQueue(path: path)
        #expect(try check.inDatabase { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") } == "ok")
    }
}
