/// A fetched property: a named query from one entity's objects to
/// another's (`NSFetchedPropertyDescription`). Never stored, so it adds no
/// column and does not change the entity's version hash.
public struct FetchedPropertyDescription: Sendable, Hashable {
    public var name: String
    /// The entity the query fetches.
    public var destinationEntityName: String?
    /// The query's predicate in the format language, when the model gives it as text.
    public var predicateFormat: String?

    public init(name: String, destinationEntityName: String? = nil, predicateFormat: String? = nil) {
        self.name = name
        self.destinationEntityName = destinationEntityName
        self.predicateFormat = predicateFormat
    }
}
