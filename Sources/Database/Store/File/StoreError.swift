import CodedErrors

/// A store operation that failed: what went wrong (``StoreErrorCode``),
/// and where.
///
/// Every failure the store reports is one of these, carrying enough
/// context (the file, the entity, the SQL) to find the cause without a
/// debugger.
public typealias StoreError = CodedError<StoreErrorCode>

/// The kinds of failure of a ``StoreError``.
public enum StoreErrorCode: String, ErrorCode {
    public typealias Context = StoreErrorContext

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

    /// `<code>: <message>`, then the entity, the file and the SQL when known.
    public static func describe(_ error: StoreError) -> String {
        describe(error.code.rawValue, error.message, entity: error.entity.map { "entity \($0)" }, path: error.path,
                 sql: error.sql)
    }

    /// How the store's errors read (``StoreError`` and
    /// ``StoreMigrationError``): `<code>: <message>`, then `(<entity>)`,
    /// `[<path>]` and `SQL: <sql>` for what is known.
    static func describe(_ code: String, _ message: String, entity: String?, path: String?, sql: String?) -> String {
        var text = "\(code): \(message)"
        if let entity { text += " (\(entity))" }
        if let path { text += " [\(path)]" }
        if let sql { text += " SQL: \(sql)" }
        return text
    }
}

/// Where a ``StoreError`` happened.
public struct StoreErrorContext: Hashable, Sendable {
    /// The store's file.
    public var path: String?
    /// The entity concerned.
    public var entity: String?
    /// The SQL that failed.
    public var sql: String?
    /// For ``StoreErrorCode/conflict`` and ``StoreErrorCode/deleteDenied``: the objects concerned.
    public var objects: [ObjectID]
}

extension StoreError {
    /// Creates an error.
    public init(_ code: Code, _ message: String, path: String? = nil, entity: String? = nil, sql: String? = nil,
                objects: [ObjectID] = []) {
        self.init(code, message, context: StoreErrorContext(path: path, entity: entity, sql: sql, objects: objects))
    }

    func at(path: String) -> StoreError {
        var copy = self
        if copy.path == nil { copy.path = path }
        return copy
    }
}
