import Foundation
import GRDB
import OrderedCollections
import PredicateFormat

/// A scratch pad of changes to a store's objects: insert, update and
/// delete, then save them as one transaction or roll them back.
///
/// Saving checks each changed object's version (`Z_OPT`) against the one
/// the context read: if another connection or process saved the object
/// since, nothing is written and the save throws
/// ``StoreErrorCode/conflict`` listing the objects. Delete rules
/// (nullify, cascade, deny) are applied when an object is deleted, and
/// relationship inverses are kept: setting one side sets the other.
///
/// A context is not thread-safe: use it from one task at a time.
public final class ObjectContext {
    public let store: PersistentStore
    var pending = PendingChanges()
    /// The version each saved object was read at.
    var versions: [ObjectID: Int64] = [:]
    private var nextTemporaryKey: Int64 = -1

    public init(store: PersistentStore) {
        self.store = store
    }

    var layout: StoreLayout { store.layout }

    /// Whether the context holds unsaved changes.
    public var hasChanges: Bool { !pending.isEmpty }

    /// The objects inserted and not yet saved.
    public var insertedObjectIDs: [ObjectID] { Array(pending.inserted.keys) }

    /// The saved objects deleted and not yet saved.
    public var deletedObjectIDs: [ObjectID] { Array(pending.deleted.filter { !$0.isTemporary }) }

    /// Inserts a new object of `entityName` with these attribute values;
    /// it has a temporary ID until saved.
    public func insert(_ entityName: String, values: [String: AttributeValue] = [:]) throws(StoreError) -> ObjectID {
        let entity = try layout.requireEntity(entityName)
        for (key, value) in values { try check(value, for: key, in: entity) }
        let id = ObjectID(entityName: entityName, primaryKey: nextTemporaryKey)
        nextTemporaryKey -= 1
        pending.inserted[id] = values
        return id
    }

    /// Sets an attribute.
    public func set(_ value: AttributeValue, for key: String, of id: ObjectID) throws(StoreError) {
        let entity = try layout.requireEntity(id.entityName)
        try check(value, for: key, in: entity)
        try requireLive(id)
        if id.isTemporary {
            pending.inserted[id]?[key] = value
        } else {
            try registerVersion(of: id)
            pending.values[id, default: [:]][key] = value
            pending.noteChange(key, of: id)
        }
    }

    /// Discards every unsaved change.
    public func rollback() {
        pending = PendingChanges()
        versions = [:]
    }

    /// Forgets the versions read, so the next change of each object
    /// checks against the store's current version (after a conflict).
    public func refreshVersions() {
        versions = [:]
    }

    // MARK: Reading through the context

    /// The object as the context sees it: the store's row with the unsaved changes applied.
    public func object(with id: ObjectID) throws(StoreError) -> ManagedObject {
        guard !pending.deleted.contains(id) else {
            throw StoreError(.objectNotFound, "\(id) is deleted in this context", entity: id.entityName, objects: [id])
        }
        var object: ManagedObject
        if id.isTemporary {
            guard let values = pending.inserted[id] else {
                throw StoreError(.objectNotFound, "no inserted object \(id)", entity: id.entityName, objects: [id])
            }
            object = ManagedObject(objectID: id, values: values)
            let entity = try layout.requireEntity(id.entityName)
            for name in entity.attributes.keys where object.values[name] == nil {
                object.values[name] = defaultValue(of: name, in: entity)
            }
        } else {
            object = try store.object(with: id)
            if versions[id] == nil { versions[id] = object.version }
            for (key, value) in pending.values[id] ?? [:] { object.values[key] = value }
        }
        for (key, destination) in pending.toOne[id] ?? [:] { object.toOne[key] = destination }
        return object
    }

    /// The objects of an entity as the context sees them: saved ones with
    /// their changes, less deleted ones, plus inserted ones.
    public func objects(of entityName: String, includingSubentities: Bool = true) throws(StoreError) -> [ManagedObject] {
        let entity = try layout.requireEntity(entityName)
        var result: [ManagedObject] = []
        for stored in try store.objects(of: entityName, includingSubentities: includingSubentities)
        where !pending.deleted.contains(stored.objectID) {
            if versions[stored.objectID] == nil { versions[stored.objectID] = stored.version }
            var object = stored
            for (key, value) in pending.values[stored.objectID] ?? [:] { object.values[key] = value }
            for (key, destination) in pending.toOne[stored.objectID] ?? [:] { object.toOne[key] = destination }
            result.append(object)
        }
        let numbers = includingSubentities ? entity.entityNumbers : [entity.number]
        for id in pending.inserted.keys where numbers.contains(layout.entity(named: id.entityName)?.number ?? -1) {
            result.append(try object(with: id))
        }
        return result
    }

    // MARK: Support

    func check(_ value: AttributeValue, for key: String, in entity: EntityLayout) throws(StoreError) {
        guard let attribute = entity.attributes[key] else {
            throw StoreError(.invalidValue, "entity \(entity.name) has no stored attribute \(key)", entity: entity.name)
        }
        _ = try ColumnValueCoding.databaseValue(value, type: attribute.type, key: key, entity: entity.name)
    }

    func requireLive(_ id: ObjectID) throws(StoreError) {
        if pending.deleted.contains(id) || (id.isTemporary && pending.inserted[id] == nil) {
            throw StoreError(.objectNotFound, "\(id) is deleted or unknown in this context", entity: id.entityName,
                             objects: [id])
        }
    }

    /// Reads the object's version if the context has not seen it yet.
    func registerVersion(of id: ObjectID) throws(StoreError) {
        guard !id.isTemporary, versions[id] == nil else { return }
        versions[id] = try store.object(with: id).version
    }

    /// The model's default for an attribute, as Core Data fills it on insert.
    func defaultValue(of key: String, in entity: EntityLayout) -> AttributeValue {
        ObjectContextDefaults.value(of: key, entity: entity, model: layout.model)
    }
}
