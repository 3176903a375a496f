import Foundation
import GRDB

extension PersistentStore {
    /// Where the model of a store opened by ``openReadOnly(atPath:)`` came from.
    public enum ModelOrigin: String, Sendable, Hashable {
        /// The model Core Data cached in the store (`Z_MODELCACHE`).
        case modelCache
        /// The model the caller gave.
        case given
    }

    /// Opens a store read-only with nothing but its file, as a tool that
    /// reads stores from a backup or a forensic image must: the model is the
    /// one Core Data cached in the store (`Z_MODELCACHE`), unless `model` is
    /// given. Like ``openReadOnly(atPath:model:)``, it creates no file
    /// beside the store.
    ///
    /// - Throws: ``StoreError``; a store with no cached model and no `model`
    ///   is ``StoreErrorCode/notACoreDataStore``, a cache that cannot be
    ///   read is ``StoreErrorCode/invalidModel`` with the model error.
    public static func openReadOnly(atPath path: String, model given: ObjectModel? = nil)
        throws(StoreError) -> (store: PersistentStore, metadata: StoreMetadata?, modelOrigin: ModelOrigin)
    {
        let queue = try imageConnection(atPath: path)
        let contents: (cache: Data?, metadata: Data?)
        do {
            contents = try queue.inDatabase { db in
                let cache = try db.tableExists("Z_MODELCACHE")
                    ? try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1") : nil
                let metadata = try db.tableExists("Z_METADATA")
                    ? try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1") : nil
                return (cache, metadata)
            }
        } catch {
            throw StoreError(.notACoreDataStore, "cannot read Z_MODELCACHE or Z_METADATA", path: path).caused(by: error)
        }
        let metadata = contents.metadata.flatMap { try? StoreMetadata(propertyList: $0) }
        let model: ObjectModel
        let origin: ModelOrigin
        if let given {
            (model, origin) = (given, .given)
        } else if let cache = contents.cache {
            do {
                model = try ObjectModel(modelCache: cache)
            } catch {
                throw StoreError(.invalidModel, "the model cached in Z_MODELCACHE cannot be read", path: path).caused(by: error)
            }
            origin = .modelCache
        } else {
            throw StoreError(.notACoreDataStore,
                             "the store caches no model (no Z_MODELCACHE row); give the model it was written with", path: path)
        }
        let layout = try reconciledLayout(model: model, database: queue, path: path)
        return (PersistentStore(path: path, layout: layout, isReadOnly: true, database: queue), metadata, origin)
    }
}
