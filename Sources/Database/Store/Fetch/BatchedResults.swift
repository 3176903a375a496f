import FileSystem
import GRDB

/// The result of a batched fetch (`fetchBatchSize`): every matching
/// object's identifier, read at once, and the objects themselves read a
/// batch at a time when they are first asked for, as Core Data's faults are.
public final class BatchedResults: Sendable {
    public let store: PersistentStore
    /// The matching objects' identifiers, in the request's order.
    public let objectIDs: [ObjectID]
    public let batchSize: Int
    private let loaded = Locked([Int: [ManagedObject]]())

    init(store: PersistentStore, objectIDs: [ObjectID], batchSize: Int) {
        self.store = store
        self.objectIDs = objectIDs
        self.batchSize = max(batchSize, 1)
    }

    public var count: Int { objectIDs.count }

    /// The object at `index`, reading its batch if it is not in memory yet.
    public func object(at index: Int) throws(StoreError) -> ManagedObject {
        guard objectIDs.indices.contains(index) else {
            throw StoreError(.objectNotFound, "index \(index) is outside the \(objectIDs.count) results", path: store.path)
        }
        let batch = index / batchSize
        if let objects = loaded.withLock({ $0[batch] }) { return objects[index % batchSize] }
        let ids = Array(objectIDs[(batch * batchSize)..<min((batch + 1) * batchSize, objectIDs.count)])
        let objects = try store.objects(with: ids)
        loaded.withLock { $0[batch] = objects }
        return objects[index % batchSize]
    }

    /// How many batches have been read.
    public var batchesRead: Int { loaded.withLock { $0.count } }
}

extension PersistentStore {
    /// Reads the identifiers of the matching objects now and the objects in
    /// batches of the request's `fetchBatchSize` (20 when it is 0) as they
    /// are asked for.
    public func fetchBatched(_ request: FetchRequest) throws(StoreError) -> BatchedResults {
        BatchedResults(store: self, objectIDs: try fetchObjectIDs(request),
                       batchSize: request.fetchBatchSize > 0 ? request.fetchBatchSize : 20)
    }

    /// The objects with these identifiers, in the same order; one query per
    /// table. A missing object is ``StoreErrorCode/objectNotFound``.
    public func objects(with ids: [ObjectID]) throws(StoreError) -> [ManagedObject] {
        var byTable: [String: [Int64]] = [:]
        for id in ids {
            let entity = try layout.requireEntity(id.entityName)
            byTable[entity.tableName, default: []].append(id.primaryKey)
        }
        var found: [ObjectID: ManagedObject] = [:]
        for (table, keys) in byTable {
            let sql = "SELECT * FROM \(table) WHERE Z_PK IN (\(keys.map(String.init).joined(separator: ",")))"
            let objects = try read { db in try layout.objects(try db.makeStatement(sql: sql)) }
            for object in objects { found[object.objectID] = object }
        }
        var result: [ManagedObject] = []
        result.reserveCapacity(ids.count)
        for id in ids {
            guard let object = found[id] else {
                throw StoreError(.objectNotFound, "no object \(id) in the store", path: path, entity: id.entityName)
            }
            result.append(object)
        }
        return result
    }
}
