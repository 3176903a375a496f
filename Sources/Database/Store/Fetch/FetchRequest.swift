import PredicateFormat

/// What to fetch (`NSFetchRequest`): an entity, a predicate, an order, a
/// window, and how much of each object to read.
///
/// ```swift
/// var request = FetchRequest(entityName: "Possession")
/// request.predicate = try FormatPredicate(format: "possessionName CONTAINS[c] %@", arguments: [.value(.string("lamp"))])
/// request.sortDescriptors = [StoreSortDescriptor(keyPath: "possessionName")]
/// request.fetchLimit = 50
/// let lamps = try store.fetch(request)
/// ```
public struct FetchRequest: Sendable, Hashable {
    public var entityName: String
    /// `nil` matches every object.
    public var predicate: FormatPredicate?
    /// Applied in order; ties are broken by primary key, so the order is stable.
    public var sortDescriptors: [StoreSortDescriptor]
    /// 0: no limit.
    public var fetchLimit: Int
    public var fetchOffset: Int
    /// With a batch size, ``PersistentStore/fetchBatched(_:)`` reads the
    /// matching identifiers first and the objects a batch at a time.
    public var fetchBatchSize: Int
    /// Whether objects of sub-entities match too (Core Data's default: yes).
    public var includesSubentities: Bool
    /// The attributes a dictionary fetch returns; empty: all of them.
    public var propertiesToFetch: [String]

    public init(entityName: String, predicate: FormatPredicate? = nil, sortDescriptors: [StoreSortDescriptor] = [],
                fetchLimit: Int = 0, fetchOffset: Int = 0, fetchBatchSize: Int = 0, includesSubentities: Bool = true,
                propertiesToFetch: [String] = []) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
        self.fetchBatchSize = fetchBatchSize
        self.includesSubentities = includesSubentities
        self.propertiesToFetch = propertiesToFetch
    }
}
