import CodedErrors

/// A store migration that failed: what went wrong
/// (``StoreMigrationErrorCode``), and where.
///
/// Whatever the code, the store is left as it was: the migration runs in
/// one SQLite transaction, and every check happens before the first write.
public typealias StoreMigrationError = CodedError<StoreMigrationErrorCode>

/// The kinds of failure of a ``StoreMigrationError``.
public enum StoreMigrationErrorCode: String, ErrorCode {
    public typealias Context = StoreMigrationErrorContext

    /// The two models differ in a way a lightweight migration cannot
    /// bridge (an attribute's type changed…); ``StoreMigrationErrorContext/planError`` says how.
    case notLightweight
    /// The store's data breaks a condition the destination model sets
    /// (a required attribute or relationship would be empty).
    case checkFailed
    /// The store's metadata records hashes of none of the models given.
    case unknownVersion
    /// The file is missing, not SQLite, or not in Core Data's layout;
    /// ``StoreMigrationErrorContext/storeError`` says how.
    case notAStore
    /// The store lacks a table or column its own model lays out.
    case schemaMismatch
    /// A destination default value cannot be read as its attribute's type.
    case invalidDefaultValue
    /// SQLite or the file system failed.
    case io

    /// `<code>: <message>`, then the entity and property, the file and the SQL when known.
    public static func describe(_ error: StoreMigrationError) -> String {
        let place = error.entity.map { entity in error.property.map { "\(entity).\($0)" } ?? entity }
        return StoreErrorCode.describe(error.code.rawValue, error.message, entity: place, path: error.path, sql: error.sql)
    }
}

/// Where a ``StoreMigrationError`` happened, and the error behind it.
public struct StoreMigrationErrorContext: Hashable, Sendable {
    /// The store's file.
    public var path: String?
    public var entity: String?
    public var property: String?
    /// The SQL that failed.
    public var sql: String?
    /// For ``StoreMigrationErrorCode/notLightweight``: the planner's error.
    public var planError: ModelMigrationError?
    /// For ``StoreMigrationErrorCode/notAStore``: the store's error.
    public var storeError: StoreError?
}

extension StoreMigrationError {
    /// Creates an error.
    public init(_ code: Code, _ message: String, path: String? = nil, entity: String? = nil, property: String? = nil,
                sql: String? = nil, planError: ModelMigrationError? = nil, storeError: StoreError? = nil) {
        let context = StoreMigrationErrorContext(path: path, entity: entity, property: property, sql: sql,
                                                 planError: planError, storeError: storeError)
        self.init(code, message, context: context)
    }

    func at(path: String) -> StoreMigrationError {
        var copy = self
        if copy.path == nil { copy.path = path }
        return copy
    }
}
