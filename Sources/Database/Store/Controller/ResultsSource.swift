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
    /// the object is saved.
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
    public var versions: [ID: Int64]

    public init(snapshot: ResultsSnapshot<ID>, versions: [ID: Int64]) {
        self.snapshot = snapshot
        self.versions = versions
    }
}
