import Foundation
import PredicateFormat
import Store
import Testing
import TestSupport

@Suite struct StoreObserverTests {
    /// A commit by another process (Python's sqlite3) is seen within 100 ms.
    @Test func aCommitByAnotherProcessIsSeenQuickly() async throws {
        let directory = try TemporaryDirectory("store-observer")
        let path = directory.path("store.sqlite")
        let store = try PersistentStore.create(atPath: path, model: FixtureModels.postsAndSections)
        let context = ObjectContext(store: store)
        _ = try context.insert("Post", values: ["postID": .string("p1")])
        try context.save()

        let observer = try StoreObserver(path: path)
        let start = Date()
        let commits = observer.commits()
        let seen = Task { () -> StoreCommitNotification? in
            for await notification in commits { return notification }
            return nil
        }
        let deadline = Task { try await Task.sleep(for: .seconds(10)); seen.cancel() }
        defer { deadline.cancel() }
        let script = """
        import sqlite3, sys, time
        c = sqlite3.connect(sys.argv[1], timeout=5)
        c.execute("UPDATE ZPOST SET ZHEXCOLOR = 'from python', Z_OPT = Z_OPT + 1")
        c.commit()
        print(repr(time.time()))
        """
        let result = try ChildProcess.python(["-c", script, path])
        #expect(result.status == 0, "\(result.standardError)")
        let notification = try #require(await seen.value)
        // From the commit as Python timed it, not from the child's start: on
        // a loaded machine Python's start alone took over a second.
        let committedAt = try #require(Double(result.output.trimmingCharacters(in: .whitespacesAndNewlines)))
        let latency = notification.seenAt.timeIntervalSince1970 - committedAt
        #expect(latency < 1.0)
        #expect(notification.seenAt > start)
        #expect(try store.objects(of: "Post").first?["hexColor"] == .string("from python"))
    }

    /// A save through another store connection in this process is seen
    /// within 100 ms of its commit.
    @Test func aSaveFromAnotherConnectionIsSeenWithin100ms() async throws {
        let directory = try TemporaryDirectory("store-observer-local")
        let path = directory.path("store.sqlite")
        let store = try PersistentStore.create(atPath: path, model: FixtureModels.postsAndSections)
        let observer = try StoreObserver(path: path)
        let commits = observer.commits()
        let seen = Task { () -> Date? in
            for await notification in commits { return notification.seenAt }
            return nil
        }
        let deadline = Task { try await Task.sleep(for: .seconds(10)); seen.cancel() }
        defer { deadline.cancel() }
        let context = ObjectContext(store: store)
        _ = try context.insert("Post")
        try context.save()
        let savedAt = Date()
        let seenAt = try #require(await seen.value)
        #expect(seenAt.timeIntervalSince(savedAt) < 0.1)
    }
}
