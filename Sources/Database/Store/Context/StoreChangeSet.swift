/// What one save changed: the objects inserted, updated (with the keys
/// that changed) and deleted.
///
/// Inserted objects are listed by their permanent IDs;
/// ``permanentIDs`` maps the temporary IDs the context handed out to them.
public struct StoreChangeSet: Sendable, Hashable {
    public var inserted: [ObjectID]
    /// Each updated object and the attributes and relationships that changed.
    public var updated: [ObjectID: Set<String>]
    public var deleted: [ObjectID]
    /// Temporary ID → permanent ID, for each inserted object.
    public var permanentIDs: [ObjectID: ObjectID]

    public init(inserted: [ObjectID] = [], updated: [ObjectID: Set<String>] = [:], deleted: [ObjectID] = [],
                permanentIDs: [ObjectID: ObjectID] = [:]) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.permanentIDs = permanentIDs
    }

    /// Whether the save changed nothing.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}
