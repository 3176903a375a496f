import OrderedCollections

extension ObjectContext {
    /// Sets a to-one relationship (nil clears it). The inverse follows: a
    /// one-to-one's other side is set and its previous partners cleared; a
    /// to-many inverse sees the change through the same column.
    public func setToOne(_ name: String, of id: ObjectID, to destination: ObjectID?) throws(StoreError) {
        let (relationship, storage) = try relationship(name, of: id)
        guard case .foreignKey = storage, !relationship.isToMany else {
            throw StoreError(.invalidValue, "\(name) is a to-many relationship", entity: id.entityName)
        }
        if let destination { try requireKind(destination, of: relationship.destinationEntityName) }
        let snapshot = pending
        do {
            try requireLive(id)
            let old = try currentToOne(name, of: id)
            try assignToOne(name, of: id, to: destination)
            if let inverse = layout.model.inverseRelationship(of: relationship), !inverse.isToMany {
                if let old, old != destination, !pending.deleted.contains(old) {
                    try assignToOne(inverse.name, of: old, to: nil)
                }
                if let destination {
                    if let previous = try currentToOne(inverse.name, of: destination), previous != id,
                       !pending.deleted.contains(previous) {
                        try assignToOne(name, of: previous, to: nil)
                    }
                    try assignToOne(inverse.name, of: destination, to: id)
                }
            }
        } catch {
            pending = snapshot
            throw error
        }
    }

    /// Replaces the members of a to-many relationship (in this order for an
    /// ordered one). Removed members' inverse is cleared; added ones' set.
    public func setToMany(_ name: String, of id: ObjectID, to destinations: [ObjectID]) throws(StoreError) {
        let (relationship, storage) = try relationship(name, of: id)
        guard relationship.isToMany else {
            throw StoreError(.invalidValue, "\(name) is a to-one relationship", entity: id.entityName)
        }
        for destination in destinations { try requireKind(destination, of: relationship.destinationEntityName) }
        let snapshot = pending
        do {
            try requireLive(id)
            let current = try self.destinations(of: id, relationship: name)
            let wanted = OrderedSet(destinations)
            switch storage {
            case .inverseForeignKey(_, _, let orderColumn):
                guard let inverse = layout.model.inverseRelationship(of: relationship) else { break }
                for removed in current where !wanted.contains(removed) {
                    try assignToOne(inverse.name, of: removed, to: nil)
                }
                for (position, added) in wanted.enumerated() {
                    if try currentToOne(inverse.name, of: added) != id { try assignToOne(inverse.name, of: added, to: id) }
                    if orderColumn != nil {
                        pending.orderPositions[added, default: [:]][inverse.name] = Int64(position + 1)
                        pending.noteChange(inverse.name, of: added)
                    }
                }
            case .joinTable(let table, let sourceColumn, let destinationColumn, let orderColumn):
                let inverseName = layout.model.inverseRelationship(of: relationship)?.name
                for removed in current where !wanted.contains(removed) {
                    setJoinRow(JoinRow(table: table, column: sourceColumn, key: id, otherColumn: destinationColumn,
                                       otherKey: removed), present: false)
                    if let inverseName { pending.noteChange(inverseName, of: removed) }
                }
                for added in wanted where !current.contains(added) {
                    setJoinRow(JoinRow(table: table, column: sourceColumn, key: id, otherColumn: destinationColumn,
                                       otherKey: added), present: true)
                    if let inverseName { pending.noteChange(inverseName, of: added) }
                }
                if let orderColumn {
                    for (position, member) in wanted.enumerated() {
                        let row = JoinRow(table: table, column: sourceColumn, key: id, otherColumn: destinationColumn, otherKey: member)
                        pending.joinPositions[JoinPosition(row: row, orderColumn: orderColumn)] = Int64(position + 1)
                    }
                }
            case .foreignKey:
                break
            }
            pending.noteChange(name, of: id)
        } catch {
            pending = snapshot
            throw error
        }
    }

    /// Adds one object to a to-many relationship.
    public func add(_ destination: ObjectID, to name: String, of id: ObjectID) throws(StoreError) {
        let current = try destinations(of: id, relationship: name)
        guard !current.contains(destination) else { return }
        try setToMany(name, of: id, to: current + [destination])
    }

    /// Removes one object from a to-many relationship.
    public func remove(_ destination: ObjectID, from name: String, of id: ObjectID) throws(StoreError) {
        let current = try destinations(of: id, relationship: name)
        try setToMany(name, of: id, to: current.filter { $0 != destination })
    }

    /// The objects a relationship reaches, as the context sees them.
    public func destinations(of id: ObjectID, relationship name: String) throws(StoreError) -> [ObjectID] {
        let (relationship, storage) = try relationship(name, of: id)
        switch storage {
        case .foreignKey:
            return try currentToOne(name, of: id).map { [$0] } ?? []
        case .inverseForeignKey:
            guard let inverse = layout.model.inverseRelationship(of: relationship) else { return [] }
            var result = OrderedSet(id.isTemporary ? [] : try store.destinations(of: id, relationship: name))
            result.removeAll { member in
                if case .some(let target) = pending.toOne[member]?[inverse.name] { return target != id }
                return false
            }
            for (member, relationships) in pending.toOne {
                if case .some(.some(let target)) = relationships[inverse.name], target == id,
                   layout.model.rootEntity(ofEntityNamed: member.entityName)?.name
                    == layout.model.rootEntity(ofEntityNamed: relationship.destinationEntityName)?.name {
                    result.append(member)
                }
            }
            if relationship.isOrdered {
                result = Self.inPendingPlaces(result) { pending.orderPositions[$0]?[inverse.name] }
            }
            return result.filter { !pending.deleted.contains($0) }
        case .joinTable(let table, let sourceColumn, let destinationColumn, let orderColumn):
            var result = OrderedSet(id.isTemporary ? [] : try store.destinations(of: id, relationship: name))
            for (row, present) in pending.joinRows where row.table == table {
                let (mine, other) = row.firstColumn == sourceColumn
                    ? (row.firstKey, row.secondKey) : (row.secondKey, row.firstKey)
                guard mine == id, (row.firstColumn == sourceColumn ? row.secondColumn : row.firstColumn) == destinationColumn
                else { continue }
                if present { result.append(other) } else { result.remove(other) }
            }
            if let orderColumn {
                result = Self.inPendingPlaces(result) { member in
                    pending.joinPositions[JoinPosition(row: JoinRow(table: table, column: sourceColumn, key: id,
                                                                    otherColumn: destinationColumn, otherKey: member),
                                                       orderColumn: orderColumn)]
                }
            }
            return result.filter { !pending.deleted.contains($0) }
        }
    }

    // MARK: Support

    /// An ordered to-many's members in the places this context gave them,
    /// when it gave every one a place (a `setToMany` since the last save);
    /// otherwise in the stored order they came in.
    static func inPendingPlaces(_ members: OrderedSet<ObjectID>, place: (ObjectID) -> Int64?) -> OrderedSet<ObjectID> {
        let places = members.map(place)
        guard places.allSatisfy({ $0 != nil }) else { return members }
        return OrderedSet(zip(members, places).sorted { ($0.1 ?? 0) < ($1.1 ?? 0) }.map(\.0))
    }

    func relationship(_ name: String, of id: ObjectID) throws(StoreError)
        -> (RelationshipDescription, RelationshipStorage) {
        let entity = try layout.requireEntity(id.entityName)
        guard let storage = entity.relationships[name],
              let relationship = layout.model.relationship(name, ofEntityNamed: id.entityName) else {
            throw StoreError(.invalidValue, "entity \(id.entityName) has no relationship \(name)", entity: id.entityName)
        }
        return (relationship, storage)
    }

    func requireKind(_ id: ObjectID, of entityName: String) throws(StoreError) {
        guard let entity = layout.entity(named: entityName), let actual = layout.entity(named: id.entityName),
              entity.entityNumbers.contains(actual.number) else {
            throw StoreError(.invalidValue, "\(id) is not an object of \(entityName)", entity: entityName, objects: [id])
        }
    }

    /// The to-one destination as the context sees it.
    func currentToOne(_ name: String, of id: ObjectID) throws(StoreError) -> ObjectID? {
        if case .some(let value) = pending.toOne[id]?[name] { return value }
        if id.isTemporary { return nil }
        let stored = try store.object(with: id)
        if versions[id] == nil { versions[id] = stored.version }
        return stored.toOne[name]
    }

    func assignToOne(_ name: String, of id: ObjectID, to destination: ObjectID?) throws(StoreError) {
        try registerVersion(of: id)
        pending.toOne[id, default: [:]][name] = .some(destination)
        pending.noteChange(name, of: id)
    }

    func setJoinRow(_ row: JoinRow, present: Bool) {
        if let existing = pending.joinRows[row], existing != present {
            pending.joinRows[row] = nil   // an insert and a delete of the same row cancel out
        } else {
            pending.joinRows[row] = present
        }
    }
}
