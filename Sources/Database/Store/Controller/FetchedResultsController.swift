import FileSystem

/// Keeps a fetch request's results, in sections, and reports how they change
/// (`NSFetchedResultsController`).
///
/// Each refresh reads the identifiers and versions again and diffs them with
/// what the controller held, so a change saved by this process, by another
/// connection or by another process is reported the same way: as inserts,
/// deletes, moves and updates with index paths. Objects are read in batches
/// of ``batchSize`` when they are asked for, so a long list costs its
/// identifiers, not its objects.
///
/// With a ``ResultsCache``, the first fetch may come from `Library/Caches`.
/// The cache is keyed by the request's fingerprint and the store's data
/// token, so it is used only when it cannot be stale.
public final class FetchedResultsController<Source: ResultsSource>: Sendable {
    public typealias ID = Source.ID

    public let source: Source
    public let batchSize: Int
    public let cache: ResultsCache?
    public let fingerprint: ResultsFingerprint?

    private struct State {
        var results = VersionedResults<ID>(snapshot: ResultsSnapshot(), versions: [])
        var fetched = false
        /// After a fetch from the cache, which keeps no versions: the data
        /// token the cache matched. The first refresh that finds another token
        /// reports every object that kept its place as updated, since it
        /// cannot tell which were.
        var unversionedToken: String?
        var batches: [Int: [Source.Object]] = [:]
        var batchOrder: [Int] = []
        var continuations: [Int: AsyncStream<ResultsUpdate<ID>>.Continuation] = [:]
        var nextObserver = 0
    }

    private let state = Locked(State())
    /// Batches kept in memory at once; older ones are read again if needed.
    private let retainedBatches = 8

    /// - Parameters:
    ///   - batchSize: objects read at a time; 0 reads them all at once.
    ///   - cache: the persistent cache and the request's fingerprint, or `nil`.
    public init(source: Source, batchSize: Int = 20, cache: (ResultsCache, ResultsFingerprint)? = nil) {
        self.source = source
        self.batchSize = max(batchSize, 0)
        self.cache = cache?.0
        self.fingerprint = cache?.1
    }

    /// Where the first fetch came from.
    public enum FetchOrigin: Sendable, Hashable {
        case store
        case cache
    }

    /// Reads the results (`performFetch()`), from the cache when it is valid.
    @discardableResult
    public func performFetch() throws -> FetchOrigin {
        if let cache, let fingerprint {
            let token = try source.dataToken()
            if case .success(let snapshot) = cache.lookup(ID.self, fingerprint: fingerprint, dataToken: token) {
                install(VersionedResults(snapshot: snapshot, versions: []), unversionedToken: token)
                return .cache
            }
            let results = try source.currentResults()
            install(results)
            try? cache.save(results.snapshot, fingerprint: fingerprint, dataToken: token)
            return .store
        }
        install(try source.currentResults())
        return .store
    }

    private func install(_ results: VersionedResults<ID>, unversionedToken: String? = nil) {
        state.withLock {
            $0.results = results
            $0.unversionedToken = unversionedToken
            $0.fetched = true
            $0.batches = [:]
            $0.batchOrder = []
        }
    }

    /// The current snapshot: sections and identifiers.
    public var snapshot: ResultsSnapshot<ID> { state.withLock { $0.results.snapshot } }

    /// The sections' index titles (`sectionIndexTitles`).
    public var sectionIndexTitles: [String] { snapshot.sectionIndexTitles }

    /// Reads the results again and reports the difference to every observer.
    /// Returns the changes, empty when nothing the request matches changed.
    @discardableResult
    public func refresh() throws -> [ResultsChange<ID>] {
        let current = try source.currentResults()
        let unversionedToken = state.withLock { $0.unversionedToken }
        let everythingMayHaveChanged = try unversionedToken.map { try source.dataToken() != $0 } ?? false
        let (changes, observers) = state.withLock { state -> ([ResultsChange<ID>], [AsyncStream<ResultsUpdate<ID>>.Continuation]) in
            let old = state.results
            var updated = Set<ID>()
            let oldVersions = old.versionsByID()
            for (id, version) in current.versionsByID() {
                if let previous = oldVersions[id] {
                    if previous != version { updated.insert(id) }
                } else if everythingMayHaveChanged {
                    updated.insert(id)
                }
            }
            let changes = ResultsDiff.changes(from: old.snapshot, to: current.snapshot, updated: updated)
            state.results = current
            state.unversionedToken = nil
            state.fetched = true
            if !changes.isEmpty {
                state.batches = [:]
                state.batchOrder = []
            }
            return (changes, Array(state.continuations.values))
        }
        if !changes.isEmpty {
            if let cache, let fingerprint, let token = try? source.dataToken() {
                try? cache.save(current.snapshot, fingerprint: fingerprint, dataToken: token)
            }
            let update = ResultsUpdate(changes: changes, snapshot: current.snapshot)
            for observer in observers { observer.yield(update) }
        }
        return changes
    }

    /// The changes, as they are found by ``refresh()``.
    public func updates() -> AsyncStream<ResultsUpdate<ID>> {
        let (stream, continuation) = AsyncStream<ResultsUpdate<ID>>.makeStream(bufferingPolicy: .unbounded)
        let key = state.withLock { state -> Int in
            state.nextObserver += 1
            state.continuations[state.nextObserver] = continuation
            return state.nextObserver
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.continuations.removeValue(forKey: key) }
        }
        return stream
    }

    /// The object at an index path (`object(at:)`), reading its batch if it is
    /// not in memory; `nil` outside the results.
    public func object(at indexPath: ResultsIndexPath) throws -> Source.Object? {
        let all = snapshot
        guard all[indexPath] != nil else { return nil }
        var flat = indexPath.item
        for section in all.sections.prefix(indexPath.section) { flat += section.ids.count }
        let size = batchSize == 0 ? max(all.count, 1) : batchSize
        let batch = flat / size
        if let objects = state.withLock({ $0.batches[batch] }) { return objects[flat % size] }
        let ids = all.ids(inFlatRange: (batch * size)..<min((batch + 1) * size, all.count))
        let objects = try source.objects(for: ids)
        guard objects.count == ids.count else { return nil }
        state.withLock { state in
            state.batches[batch] = objects
            state.batchOrder.append(batch)
            while state.batchOrder.count > retainedBatches {
                state.batches.removeValue(forKey: state.batchOrder.removeFirst())
            }
        }
        return objects[flat % size]
    }

    /// The number of batches held in memory now.
    public var batchesInMemory: Int { state.withLock { $0.batches.count } }

    deinit {
        state.withLock { state in
            for continuation in state.continuations.values { continuation.finish() }
        }
    }
}

/// One refresh that changed the results: the changes, and the snapshot they lead to.
public struct ResultsUpdate<ID: Hashable & Sendable>: Sendable {
    public var changes: [ResultsChange<ID>]
    public var snapshot: ResultsSnapshot<ID>
}

extension FetchedResultsController {
    /// Refreshes the controller after every commit `observer` sees, from any
    /// connection or process, so its ``updates()`` stream reports other
    /// processes' changes without the app asking. Cancel the task to stop.
    ///
    /// A refresh that fails (the store went away) ends the task; the
    /// controller keeps its last results.
    public func refreshOnCommits(of observer: StoreObserver) -> Task<Void, Never> {
        let commits = observer.commits()
        return Task {
            for await _ in commits {
                if Task.isCancelled { return }
                do { try refresh() } catch { return }
            }
        }
    }
}
