/// A store operation that failed: what went wrong, and where.
///
/// Every failure the store reports is one of these, carrying enough
/// context (the file, the entity, the SQL) to find the cause without a
/// debugger.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: String, Sendable, Hashable {
        /// The model cannot be laid out (a relationship names a missing entity, a cycle of super-entities…).
        case invalidModel
        /// The file is not an SQLite database, or is truncated or damaged.
        case notADatabase
        /// The `-wal` file beside the store is damaged beyond its last valid commit.
        case damagedWriteAheadLog
        /// A rollback journal beside the store holds a write that was
        /// interrupted: the main file alone is half written.
        case interruptedWrite
        /// The file is an SQLite database but not in Core Data's layout.
        case notACoreDataStore
        /// The store names an entity, table or column the model does not have.
        case schemaMismatch
        /// No object with this ID exists in the store.
        case objectNotFound
        /// Another connection changed or deleted objects this context was saving.
        case conflict
        /// A delete rule (`deny`) refused the delete.
        case deleteDenied
        /// A value does not fit the attribute's type, or a key names no property.
        case invalidValue
        /// The store was opened read-only.
        case readOnly
        /// SQLite or the file system failed.
        case io
    }

    public var code: Code
    /// A sentence saying what went wrong.
    public var message: String
    /// The store's file.
    public var path: String?
    /// The entity concerned.
    public var entity: String?
    /// The SQL that failed.
    public var sql: String?
    /// For ``Code/conflict`` and ``Code/deleteDenied``: the objects concerned.
    public var objects: [ObjectID]

    public init(_ code: Code, _ message: String, path: String? = nil, entity: String? = nil, sql: String? = nil,
                objects: [ObjectID] = []) {
        self.code = code
        self.message = message
        self.path = path
        self.entity = entity
        self.sql = sql
        self.objects = objects
    }

    public var description: String {
        var text = "\(code.rawValue): \(message)"
        if let entity { text += " (entity \(entity))" }
        if let path { text += " [\(path)]" }
        if let sql { text += " SQL: \(sql)" }
        return text
    }

    func at(path: String) -> StoreError {
        var copy = self
        if copy.path == nil { copy.path = path }
        return copy
    }
}
