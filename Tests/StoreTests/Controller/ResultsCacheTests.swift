import Container
import Foundation
import Store
import Testing
import TestSupport

private struct RowID: ResultsCacheIdentifier {
    var cacheValue: Int64
    init(cacheValue: Int64) { self.cacheValue = cacheValue }
}

@Suite struct ResultsCacheTests {
    private func fixture() throws -> (TemporaryDirectory, AppContainer) {
        let directory = try TemporaryDirectory("results-cache")
        return (directory, try AppContainer.create(at: directory.url.appendingPathComponent("home"), bundleName: "Possessions"))
    }

    private let snapshot = ResultsSnapshot(sections: [
        ResultsSection(name: "Lamps", indexTitle: "L", ids: [RowID(cacheValue: 3), RowID(cacheValue: -1 << 40)]),
        ResultsSection(name: "", indexTitle: nil, ids: [RowID(cacheValue: .max)]),
    ])

    private func fingerprint(predicate: String?) -> ResultsFingerprint {
        ResultsFingerprint(store: "753753D3", entity: "Possession", predicate: predicate,
                           sortDescriptors: ["possessionName ASC caseInsensitiveCompare:"], sectionKeyPath: "category")
    }

    @Test func aSavedSnapshotIsFoundForTheSameRequestAndData() throws {
        let (scratch, container) = try fixture()
        defer { withExtendedLifetime(scratch) {} }
        let cache = ResultsCache(container: container, name: "possessions")
        let key = fingerprint(predicate: #"possessionName CONTAINS[c] "lamp""#)
        try cache.save(snapshot, fingerprint: key, dataToken: "7")
        #expect(try cache.lookup(RowID.self, fingerprint: key, dataToken: "7").get() == snapshot)
        #expect(cache.path.hasPrefix("Library/Caches/"))
    }

    /// The seed's bug: the same cache name with a changed predicate. The
    /// fingerprint differs, so the old results can never be served.
    @Test func aChangedPredicateUnderTheSameCacheNameMisses() throws {
        let (scratch, container) = try fixture()
        defer { withExtendedLifetime(scratch) {} }
        let cache = ResultsCache(container: container, name: "possessions")
        try cache.save(snapshot, fingerprint: fingerprint(predicate: #"possessionName CONTAINS[c] "lamp""#), dataToken: "7")
        let changed = fingerprint(predicate: #"possessionName CONTAINS[c] "spork""#)
        #expect(cache.lookup(RowID.self, fingerprint: changed, dataToken: "7").miss == .differentRequest)
        #expect(cache.lookup(RowID.self, fingerprint: fingerprint(predicate: nil), dataToken: "7").isFailure)
    }

    @Test func changedDataAPurgeAndAGarbledFileAllMiss() throws {
        let (scratch, container) = try fixture()
        defer { withExtendedLifetime(scratch) {} }
        let cache = ResultsCache(container: container, name: "possessions")
        let key = fingerprint(predicate: nil)
        try cache.save(snapshot, fingerprint: key, dataToken: "7")
        #expect(cache.lookup(RowID.self, fingerprint: key, dataToken: "8").miss == .staleData)
        try container.writeAtomically(Data("bplist00 garbage".utf8), to: cache.path, durability: .none)
        #expect(cache.lookup(RowID.self, fingerprint: key, dataToken: "7").miss == .unreadable)
        try cache.delete()
        #expect(cache.lookup(RowID.self, fingerprint: key, dataToken: "7").miss == .absent)
        try cache.delete()
    }

    @Test func aHostileCacheNameStaysInsideTheCachesDirectory() throws {
        let (scratch, container) = try fixture()
        defer { withExtendedLifetime(scratch) {} }
        let cache = ResultsCache(container: container, name: "../../Documents/evil")
        #expect(cache.path.hasPrefix("\(ResultsCache.directory)/x-"))
        #expect(!cache.path.dropFirst(ResultsCache.directory.count + 1).contains("/"))
        try cache.save(snapshot, fingerprint: fingerprint(predicate: nil), dataToken: "1")
        #expect(try container.contentsOfDirectory("Documents").isEmpty)
    }

    @Test func fingerprintsSeparateTheirFields() {
        let one = ResultsFingerprint(store: "s", entity: "ab", predicate: "c", sortDescriptors: [], sectionKeyPath: nil)
        let two = ResultsFingerprint(store: "s", entity: "a", predicate: "bc", sortDescriptors: [], sectionKeyPath: nil)
        #expect(one != two)
        #expect(one.hex.count == 64)
    }
}

extension Result where Failure == CacheMissError {
    fileprivate var miss: ResultsCache.Miss? {
        if case .failure(let error) = self { return error.miss }
        return nil
    }

    fileprivate var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
