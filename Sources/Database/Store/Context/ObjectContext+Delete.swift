extension ObjectContext {
    /// Deletes an object, applying each relationship's delete rule: `deny`
    /// refuses while the relationship reaches any object (and nothing is
    /// changed), `cascade` deletes the objects it reaches, `nullify` clears
    /// their inverse, `noAction` leaves them.
    ///
    /// - Throws: ``StoreErrorCode/deleteDenied`` listing the objects that
    ///   keep the delete from happening.
    public func delete(_ id: ObjectID) throws(StoreError) {
        let snapshot = pending
        do {
            try requireLive(id)
            try deleteApplyingRules(id)
        } catch {
            pending = snapshot
            throw error
        }
    }

    private func deleteApplyingRules(_ id: ObjectID) throws(StoreError) {
        guard !pending.deleted.contains(id) else { return }
        let entity = try layout.requireEntity(id.entityName)
        try registerVersion(of: id)
        var reached: [(RelationshipDescription, RelationshipStorage, [ObjectID])] = []
        for (name, storage) in entity.relationships {
            guard let relationship = layout.model.relationship(name, ofEntityNamed: id.entityName) else { continue }
            reached.append((relationship, storage, try destinations(of: id, relationship: name)))
        }
        for (relationship, _, destinations) in reached where relationship.deleteRule == .deny && !destinations.isEmpty {
            throw StoreError(.deleteDenied,
                             "\(id)'s relationship \(relationship.name) denies the delete while it reaches objects",
                             entity: id.entityName, objects: destinations)
        }
        pending.deleted.append(id)
        if id.isTemporary { pending.inserted[id] = nil }
        pending.values[id] = nil
        pending.changedKeys[id] = nil
        for (relationship, storage, destinations) in reached {
            let inverse = layout.model.inverseRelationship(of: relationship)
            // A deleted object leaves no join rows behind, whatever its rule.
            if case .joinTable(let table, let sourceColumn, let destinationColumn, _) = storage {
                for destination in destinations {
                    setJoinRow(JoinRow(table: table, column: sourceColumn, key: id, otherColumn: destinationColumn,
                                       otherKey: destination), present: false)
                }
            }
            switch relationship.deleteRule {
            case .cascade:
                for destination in destinations { try deleteApplyingRules(destination) }
            case .nullify:
                guard let inverse else { continue }
                for destination in destinations where !pending.deleted.contains(destination) {
                    if !inverse.isToMany {
                        try assignToOne(inverse.name, of: destination, to: nil)
                    } else {
                        pending.noteChange(inverse.name, of: destination)
                    }
                }
            case .noAction, .deny:
                continue
            }
        }
    }
}
