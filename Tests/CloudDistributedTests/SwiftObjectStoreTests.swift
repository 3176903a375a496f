import CloudService
import Foundation
import Testing
import TestSupport

extension OnTheDistributedStack {
/// ``SwiftObjectStore`` against the real three-node ring. Serialized (with
/// every suite on the stack): the tests share one stack, and some kill its
/// processes (then revive them).
@Suite
struct SwiftObjectStoreTests {
    /// The listing under `prefix`, asked again for up to 10 seconds until
    /// `done` holds: a container listing follows the object writes, and on
    /// a loaded machine it can follow by a moment.
    static func listing(_ store: SwiftObjectStore, _ prefix: String, until done: ([String]) -> Bool) async throws -> [String] {
        let deadline = Date().addingTimeInterval(10)
        var listed = try await store.keys(withPrefix: prefix)
        while !done(listed), Date() < deadline {
            try await Task.sleep(nanoseconds: 200_000_000)
            listed = try await store.keys(withPrefix: prefix)
        }
        return listed
    }

    /// A prefix of this test's own, so tests never see each other's objects.
    private let prefix = "test-\(UUID().uuidString.prefix(8).lowercased())/"

    /// Bytes that differ from one call to the next (a seeded generator, so a
    /// failure can be replayed).
    private func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    @Test("put, get, list and delete, with a 0-byte object, a 4 MiB object and keys with odd characters")
    func roundTrip() async throws {
        let store = try DistributedStack.store()
        let objects: [(String, [UInt8])] = [
            (prefix + "12/ab/" + String(repeating: "ab", count: 32) + ".1", bytes(1 << 20, seed: 1)),
            (prefix + "empty", []),
            (prefix + "large/4MiB", bytes(4 << 20, seed: 2)),
            (prefix + "odd/a b%20c?d#e+f&g=h;i", bytes(17, seed: 3)),
            (prefix + "odd/ünïcødé/日本語/🙂", bytes(33, seed: 4)),
            (prefix + "odd/quotes'\"<>|\\", bytes(5, seed: 5)),
            (prefix + "odd//double-slash/", bytes(7, seed: 6)),
        ]
        for (key, value) in objects {
            try await store.put(key, value)
        }
        for (key, value) in objects {
            let back = try await store.get(key)
            #expect(back == value, "\(key): \(back.count) bytes back, \(value.count) stored")
        }
        let all = Set(objects.map(\.0))
        #expect(Set(try await Self.listing(store, prefix) { Set($0) == all }) == all)
        let odd = all.filter { $0.hasPrefix(prefix + "odd/") }
        #expect(Set(try await Self.listing(store, prefix + "odd/") { Set($0) == odd }) == odd)

        // Replacing an object replaces its bytes.
        try await store.put(objects[0].0, [1, 2, 3])
        #expect(try await store.get(objects[0].0) == [1, 2, 3])

        for (key, _) in objects {
            try await store.delete(key)
        }
        #expect(try await Self.listing(store, prefix) { $0.isEmpty }.isEmpty)
    }

    @Test("a listing longer than a page is read page by page, with a marker")
    func listingPages() async throws {
        let store = try DistributedStack.store { $0.listingPageSize = 2 }
        let keys = (0..<7).map { prefix + "page/\($0)" }
        for key in keys { try await store.put(key, [UInt8(key.count)]) }
        // A neighbour that shares the first characters but not the prefix.
        try await store.put(String(prefix.dropLast()) + "-other", [0])
        let listed = try await Self.listing(store, prefix + "page/") { $0.count >= keys.count }
        #expect(listed.sorted() == keys.sorted())
        for key in keys { try await store.delete(key) }
        try await store.delete(String(prefix.dropLast()) + "-other")
    }

    @Test("a missing object is notFound; deleting one is not an error")
    func missing() async throws {
        let store = try DistributedStack.store()
        let key = prefix + "never-stored"
        let error = await #expect(throws: CloudStorageError.self) { try await store.get(key) }
        #expect(error?.code == .notFound)
        #expect(error?.operation.contains(key) == true)
        try await store.delete(key)
    }

    @Test("a wrong key is refused, at once and typed")
    func wrongKey() async throws {
        let store = try DistributedStack.store { $0.key = "not-the-key" }
        let started = ContinuousClock.now
        let error = await #expect(throws: CloudStorageError.self) { try await store.put(prefix + "x", [1]) }
        #expect(error?.code == .refused)
        #expect(error?.operation.hasPrefix("authenticate") == true)
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test("many concurrent requests share one authentication")
    func concurrentRequests() async throws {
        let store = try DistributedStack.store()
        let keys = (0..<24).map { prefix + "concurrent/\($0)" }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, key) in keys.enumerated() {
                group.addTask { try await store.put(key, self.bytes(4096, seed: UInt64(index))) }
            }
            try await group.waitForAll()
        }
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for (index, key) in keys.enumerated() {
                group.addTask { try await store.get(key) == self.bytes(4096, seed: UInt64(index)) }
            }
            for try await same in group { #expect(same) }
        }
        for key in keys { try await store.delete(key) }
    }

    @Test("a token the proxy forgot is replaced: one fresh authentication, no error")
    func tokenRefresh() async throws {
        let stack = try DistributedStack.configuration()
        let store = try DistributedStack.store()
        try await store.put(prefix + "before", [1])
        // Tempauth keeps its tokens in memcached only: flushing it makes the
        // proxy answer 401 to the token the store holds.
        let flush = try ChildProcess.run(URL(fileURLWithPath: "/bin/bash"), [
            "-c", "exec 3<>/dev/tcp/\(stack.memcached.host)/\(stack.memcached.port); printf 'flush_all\\r\\n' >&3; head -c 4 <&3",
        ])
        #expect(flush.output == "OK\r\n", "memcached said \(flush.output) \(flush.standardError)")
        try await store.put(prefix + "after", [2])
        #expect(try await store.get(prefix + "before") == [1])
        try await store.delete(prefix + "before")
        try await store.delete(prefix + "after")
    }

    @Test("with one storage node killed, put, get, list and delete still work (3 replicas)")
    func nodeKilled() async throws {
        let store = try DistributedStack.store()
        let stored = bytes(1 << 20, seed: 7)
        let written = bytes(1 << 20, seed: 8)
        try await store.put(prefix + "stored-before", stored)
        let node = try #require(try DistributedStack.configuration().pids.nodes.first { $0.node == 2 })

        try await DistributedStack.reviving {
            // The object server alone first, by its PID, as a crash would.
            #expect(kill(node.objectPID, SIGKILL) == 0)
            try await store.put(prefix + "written-degraded", written)
            #expect(try await store.get(prefix + "stored-before") == stored)
            #expect(try await store.get(prefix + "written-degraded") == written)

            // Then the whole node (its container and account servers too).
            try DistributedStack.run(["kill-node", "2"])
            try await store.put(prefix + "written-without-node", [9, 9])
            #expect(try await store.get(prefix + "written-without-node") == [9, 9])
            // Listings are eventually consistent in Swift: an object server
            // that is down cannot update its container replica (the stack
            // runs no updaters), so a listing may lag behind the writes made
            // meanwhile, never ahead; what was written before is listed.
            let listed = Set(try await Self.listing(store, prefix) { $0.contains(prefix + "stored-before") })
            #expect(listed.contains(prefix + "stored-before"))
            #expect(listed.isSubset(of: [prefix + "stored-before", prefix + "written-degraded", prefix + "written-without-node"]))
            try await store.delete(prefix + "written-without-node")
        }
        #expect(try await store.get(prefix + "written-degraded") == written)
        try await store.delete(prefix + "stored-before")
        try await store.delete(prefix + "written-degraded")
    }

    @Test("a stopped proxy is unavailable, typed, within seconds")
    func proxyStopped() async throws {
        let store = try DistributedStack.store { $0.maxAttempts = 3 }
        try await store.put(prefix + "x", [1])

        try await DistributedStack.reviving {
            try DistributedStack.run(["kill-proxy"])
            let started = ContinuousClock.now
            let error = await #expect(throws: CloudStorageError.self) { try await store.get(prefix + "x") }
            #expect(error?.code == .unavailable)
            #expect(error?.operation == "get \(prefix)x")
            // A store that never authenticated fails the same way.
            let fresh = try DistributedStack.store { $0.maxAttempts = 2 }
            let freshError = await #expect(throws: CloudStorageError.self) { try await fresh.put(prefix + "y", [2]) }
            #expect(freshError?.code == .unavailable)
            // Refused connections are reported at once; only the back-off
            // between attempts (under a second each here) takes time.
            #expect(ContinuousClock.now - started < .seconds(5))
        }
        // The same store carries on once the proxy is back.
        #expect(try await store.get(prefix + "x") == [1])
        try await store.delete(prefix + "x")
    }
}
}
