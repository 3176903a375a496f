import Container
import Foundation
import Store
import Synchronization
import Testing
import TestSupport

private struct RowID: ResultsCacheIdentifier {
    var cacheValue: Int64
    init(cacheValue: Int64) { self.cacheValue = cacheValue }
}

/// An in-memory table: name, version; sections by first letter, sorted by name.
private final class MemorySource: ResultsSource, Sendable {
    struct Row: Sendable { var name: String; var version: Int64 }
    let rows = Mutex([Int64: Row]())
    let reads = Mutex(0)
    let filter: @Sendable (String) -> Bool

    init(filter: @escaping @Sendable (String) -> Bool = { _ in true }) { self.filter = filter }

    func currentResults() throws -> VersionedResults<RowID> {
        let sorted = rows.withLock { $0 }.filter { filter($0.value.name) }.sorted { ($0.value.name, $0.key) < ($1.value.name, $1.key) }
        var sections: [ResultsSection<RowID>] = []
        for (key, row) in sorted {
            let name = String(row.name.prefix(1))
            if sections.last?.name != name {
                sections.append(ResultsSection(name: name, indexTitle: ResultsSection<RowID>.defaultIndexTitle(forSectionName: name), ids: []))
            }
            sections[sections.count - 1].ids.append(RowID(cacheValue: key))
        }
        return VersionedResults(snapshot: ResultsSnapshot(sections: sections),
                                versions: sections.flatMap(\.ids).map { rows.withLock { $0 }[$0.cacheValue]?.version ?? 0 })
    }

    func objects(for ids: [RowID]) throws -> [String] {
        reads.withLock { $0 += 1 }
        return rows.withLock { rows in ids.map { rows[$0.cacheValue]?.name ?? "" } }
    }

    func dataToken() throws -> String {
        rows.withLock { rows in String(rows.reduce(0) { $0 &+ $1.key &* 31 &+ $1.value.version }) + "/\(rows.count)" }
    }

    func set(_ key: Int64, _ name: String) {
        rows.withLock { rows in rows[key] = Row(name: name, version: (rows[key]?.version ?? 0) + 1) }
    }
}

@Suite struct FetchedResultsControllerTests {
    @Test func aRefreshReportsTheDiffAndTheChangesRebuildTheNewSnapshot() async throws {
        let source = MemorySource()
        for (key, name) in [(1, "apple"), (2, "avocado"), (3, "banana")] { source.set(Int64(key), name) }
        let controller = FetchedResultsController(source: source, batchSize: 2)
        try controller.performFetch()
        #expect(controller.sectionIndexTitles == ["A", "B"])
        let old = controller.snapshot
        var updates = controller.updates().makeAsyncIterator()

        source.set(2, "cherry")   // moves to a new section
        source.set(3, "banana")   // same place, new version
        source.set(4, "apricot")  // inserted
        let changes = try controller.refresh()
        #expect(try old.applying(changes) == controller.snapshot)
        #expect(changes.contains(.update(RowID(cacheValue: 3), at: ResultsIndexPath(section: 1, item: 0),
                                         newIndexPath: ResultsIndexPath(section: 1, item: 0))))
        #expect(changes.contains(.insertSection(name: "c", at: 2)))
        let update = await updates.next()
        #expect(update?.changes == changes)
        #expect(try controller.refresh().isEmpty)
    }

    @Test func objectsAreReadInBatchesWhenAskedFor() throws {
        let source = MemorySource()
        for key in 0..<1_000 { source.set(Int64(key), String(format: "item %04d", key)) }
        let controller = FetchedResultsController(source: source, batchSize: 20)
        try controller.performFetch()
        #expect(source.reads.withLock { $0 } == 0)
        #expect(try controller.object(at: ResultsIndexPath(section: 0, item: 0)) == "item 0000")
        #expect(try controller.object(at: ResultsIndexPath(section: 0, item: 19)) == "item 0019")
        #expect(source.reads.withLock { $0 } == 1)
        #expect(try controller.object(at: ResultsIndexPath(section: 0, item: 999)) == "item 0999")
        #expect(source.reads.withLock { $0 } == 2)
        #expect(try controller.object(at: ResultsIndexPath(section: 0, item: 1_000)) == nil)
        for item in stride(from: 0, to: 1_000, by: 20) { _ = try controller.object(at: ResultsIndexPath(section: 0, item: item)) }
        #expect(controller.batchesInMemory <= 8)
    }

    @Test func theCacheServesAnUnchangedStoreAndIsRebuiltAfterAPurge() throws {
        let directory = try TemporaryDirectory("frc-cache")
        let container = try AppContainer.create(at: directory.url.appendingPathComponent("home"), bundleName: "Possessions")
        let source = MemorySource()
        for (key, name) in [(1, "lamp"), (2, "spork")] { source.set(Int64(key), name) }
        let cache = ResultsCache(container: container, name: "things")
        let key = ResultsFingerprint(store: "s", entity: "Thing", predicate: nil, sortDescriptors: ["name"], sectionKeyPath: "first")
        #expect(try FetchedResultsController(source: source, cache: (cache, key)).performFetch() == .store)
        let second = FetchedResultsController(source: source, cache: (cache, key))
        #expect(try second.performFetch() == .cache)
        #expect(second.snapshot == (try source.currentResults().snapshot))

        // Changed while the app was not running: the token differs, so the cache is not used.
        source.set(3, "mug")
        #expect(try FetchedResultsController(source: source, cache: (cache, key)).performFetch() == .store)

        // Purged at low disk: rebuilt.
        try container.removeItem("Library/Caches/FetchedResults")
        #expect(try FetchedResultsController(source: source, cache: (cache, key)).performFetch() == .store)
        #expect(container.fileExists(cache.path))
    }

    @Test func aControllerFromTheCacheReportsChangedObjectsAsUpdatesOnItsFirstRefresh() throws {
        let directory = try TemporaryDirectory("frc-cache-update")
        let container = try AppContainer.create(at: directory.url.appendingPathComponent("home"), bundleName: "Possessions")
        let source = MemorySource()
        source.set(1, "lamp")
        let cache = ResultsCache(container: container, name: "things")
        let key = ResultsFingerprint(store: "s", entity: "Thing", predicate: nil, sortDescriptors: [], sectionKeyPath: nil)
        try FetchedResultsController(source: source, cache: (cache, key)).performFetch()
        let controller = FetchedResultsController(source: source, cache: (cache, key))
        #expect(try controller.performFetch() == .cache)
        #expect(try controller.refresh().isEmpty)
        source.set(1, "lamp")
        let again = FetchedResultsController(source: source, cache: (cache, key))
        try FetchedResultsController(source: source, cache: (cache, key)).performFetch()
        #expect(try again.performFetch() == .cache)
        source.set(1, "lamp")
        #expect(try again.refresh().count == 1)
    }
}
