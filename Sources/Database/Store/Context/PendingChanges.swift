import OrderedCollections
import PredicateFormat

/// A context's unsaved changes, kept as plain values so that a failed
/// operation restores the copy taken before it and a rollback empties it.
struct PendingChanges {
    /// Inserted objects (temporary IDs) and the attribute values given so far.
    var inserted: OrderedDictionary<ObjectID, [String: AttributeValue]> = [:]
    /// Attribute edits of saved objects.
    var values: [ObjectID: [String: AttributeValue]] = [:]
    /// To-one relationships set (their foreign-key columns), on saved or inserted objects.
    var toOne: [ObjectID: [String: ObjectID?]] = [:]
    /// `Z_FOK_` positions of objects in an ordered to-many, by the to-one side's relationship.
    var orderPositions: [ObjectID: [String: Int64]] = [:]
    /// Join-table rows to insert (true) or delete (false).
    var joinRows: [JoinRow: Bool] = [:]
    /// Positions in an ordered many-to-many: a join row's `Z_FOK_` column
    /// and the member's place in the owner's list.
    var joinPositions: [JoinPosition: Int64] = [:]
    var deleted: OrderedSet<ObjectID> = []
    /// The keys changed on each saved object, for the change set.
    var changedKeys: [ObjectID: Set<String>] = [:]

    var isEmpty: Bool {
        inserted.isEmpty && values.isEmpty && toOne.isEmpty && orderPositions.isEmpty && joinRows.isEmpty
            && joinPositions.isEmpty && deleted.isEmpty
    }

    mutating func noteChange(_ key: String, of id: ObjectID) {
        guard !id.isTemporary else { return }
        changedKeys[id, default: []].insert(key)
    }
}

/// A row of a many-to-many join table, its two columns in name order so
/// that both sides of the relationship name the same row.
struct JoinRow: Hashable {
    var table: String
    var firstColumn: String
    var firstKey: ObjectID
    var secondColumn: String
    var secondKey: ObjectID

    init(table: String, column: String, key: ObjectID, otherColumn: String, otherKey: ObjectID) {
        self.table = table
        if column < otherColumn {
            (firstColumn, firstKey, secondColumn, secondKey) = (column, key, otherColumn, otherKey)
        } else {
            (firstColumn, firstKey, secondColumn, secondKey) = (otherColumn, otherKey, column, key)
        }
    }
}

/// A join row's order column: each ordered side of a many-to-many keeps its
/// own `Z_FOK_` column in the same row.
struct JoinPosition: Hashable {
    var row: JoinRow
    var orderColumn: String
}
