/// What a ``FetchedResultsController`` reads: the identifiers of the objects
/// a request matches, in order and in sections, with each one's version, and
/// the objects themselves in batches.
///
/// The store's fetch requests are one source; tests use in-memory ones. The
/// controller knows nothing else about the store, so what it reports is
/// always a diff of two reads, whoever changed the data.
public protocol ResultsSource: Sendable {
    associatedtype ID: ResultsCacheIdentifier
    associatedtype Object: Sendable

    /// The matching objects' identifiers in order, grouped into sections,
    /// and each one's version (Core Data's `Z_OPT`), which changes whenever
    /// the object is saved, in the same order.
    func currentResults() throws -> VersionedResults<ID>

    /// The objects with these identifiers, in the same order.
    func objects(for ids: [ID]) throws -> [Object]

    /// A token that changes whenever the data the request reads may have
    /// changed, for the persistent cache.
    func dataToken() throws -> String
}

/// One read of a ``ResultsSource``.
public struct VersionedResults<ID: ResultsCacheIdentifier>: Sendable {
    public var snapshot: ResultsSnapshot<ID>
    /// Each object's version, section after section, in the snapshot's
    /// order: an array, not a dictionary, so 100,000 matches cost 800 KB.
    /// Empty when unknown (a snapshot from the persistent cache).
    public var versions: [Int64]

    public init(snapshot: ResultsSnapshot<ID>, versions: [Int64]) {
        self.snapshot = snapshot
        self.versions = versions
    }

    /// The versions by identifier, for comparing two reads.
    func versionsByID() -> [ID: Int64] {
        guard versions.count == snapshot.count else { return [:] }
        var byID = [ID: Int64](minimumCapacity: versions.count)
        var index = 0
        for section in snapshot.sections {
            for id in section.ids {
                byID[id] = versions[index]
                index += 1
            }
        }
        return byID
    }
}
