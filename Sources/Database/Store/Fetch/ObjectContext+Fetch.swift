import PredicateFormat

extension ObjectContext {
    /// The objects a request matches as this context sees them: saved
    /// objects with the context's unsaved changes applied, less the ones it
    /// deleted, plus the ones it inserted, as Core Data's fetches include
    /// pending changes.
    ///
    /// With no unsaved changes this is the store's fetch, compiled to SQL.
    /// Otherwise the store's matches (without limit and offset) are merged
    /// with the changed and inserted objects, which are tested against the
    /// predicate in memory; the result is sorted in memory by the request's
    /// sort descriptors (ties keep store order, inserted objects last), and
    /// then the offset and limit apply.
    public func fetch(_ request: FetchRequest) throws(StoreError) -> [ManagedObject] {
        guard hasChanges else {
            let objects = try store.fetch(request)
            for object in objects where versions[object.objectID] == nil { versions[object.objectID] = object.version }
            return objects
        }
        let entity = try layout.requireEntity(request.entityName)
        let numbers = Set(request.includesSubentities ? entity.entityNumbers : [entity.number])
        func belongs(_ id: ObjectID) -> Bool { layout.entity(named: id.entityName).map { numbers.contains($0.number) } ?? false }

        var unbounded = request
        unbounded.fetchLimit = 0
        unbounded.fetchOffset = 0
        var result: [ManagedObject] = []
        var seen = Set<ObjectID>()
        let changed = Set(pending.values.keys).union(pending.toOne.keys.filter { !$0.isTemporary })
        for stored in try store.fetch(unbounded) where !pending.deleted.contains(stored.objectID) {
            seen.insert(stored.objectID)
            if versions[stored.objectID] == nil { versions[stored.objectID] = stored.version }
            if changed.contains(stored.objectID) {
                let object = try object(with: stored.objectID)
                if try matches(object, request) { result.append(object) }
            } else {
                result.append(stored)
            }
        }
        // Saved objects the store did not match but whose changes make them match.
        for id in changed.sorted() where !seen.contains(id) && belongs(id) && !pending.deleted.contains(id) {
            let object = try object(with: id)
            if try matches(object, request) { result.append(object) }
        }
        for id in pending.inserted.keys where belongs(id) {
            let object = try object(with: id)
            if try matches(object, request) { result.append(object) }
        }
        if !request.sortDescriptors.isEmpty {
            // Each key's value read once per object, so the sort itself cannot fail.
            var keys: [[AttributeValue]] = []
            for object in result {
                let subject = StoreObjectSubject(store: store, object: object)
                do {
                    keys.append(try request.sortDescriptors.map { descriptor throws(PredicateEvaluationError) in
                        try descriptor.value(of: subject)
                    })
                } catch {
                    throw StoreError(.invalidValue, "the request's sort cannot be evaluated", entity: entity.name).caused(by: error)
                }
            }
            let order = result.indices.sorted { a, b in
                for (index, descriptor) in request.sortDescriptors.enumerated() {
                    let comparison = descriptor.compareValues(keys[a][index], keys[b][index])
                    if comparison != 0 { return comparison < 0 }
                }
                return a < b
            }
            result = order.map { result[$0] }
        }
        let start = min(request.fetchOffset, result.count)
        let end = request.fetchLimit > 0 ? min(start + request.fetchLimit, result.count) : result.count
        return Array(result[start..<end])
    }

    func matches(_ object: ManagedObject, _ request: FetchRequest) throws(StoreError) -> Bool {
        guard let predicate = request.predicate else { return true }
        do {
            return try predicate.evaluate(with: object, in: store)
        } catch {
            throw StoreError(.invalidValue, "the request's predicate cannot be evaluated",
                             entity: object.objectID.entityName, objects: [object.objectID]).caused(by: error)
        }
    }
}
