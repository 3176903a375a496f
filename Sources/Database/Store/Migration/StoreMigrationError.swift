/// A store migration that failed: what went wrong, and where.
///
/// Whatever the code, the store is left as it was: the migration runs in
/// one SQLite transaction, and every check happens before the first write.
public struct StoreMigrationError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// The two models differ in a way a lightweight migration cannot
        /// bridge (an attribute's type changed…); ``StoreMigrationError/planError`` says how.
        case notLightweight
        /// The store's data breaks a condition the destination model sets
        /// (a required attribute or relationship would be empty).
        case checkFailed
        /// The store's metadata records hashes of none of the models given.
        case unknownVersion
        /// The file is missing, not SQLite, or not in Core Data's layout;
        /// ``StoreMigrationError/storeError`` says how.
        case notAStore
        /// The store lacks a table or column its own model lays out.
        case schemaMismatch
        /// A destination default value cannot be read as its attribute's type.
        case invalidDefaultValue
        /// SQLite or the file system failed.
        case io
    }

    public var code: Code
    /// A sentence saying what went wrong.
    public var message: String
    /// The store's file.
    public var path: String?
    public var entity: String?
    public var property: String?
    /// The SQL that failed.
    public var sql: String?
    /// For ``Code/notLightweight``: the planner's error.
    public var planError: MigrationError?
    /// For ``Code/notAStore``: the store's error.
    public var storeError: StoreError?

    public init(_ code: Code, _ message: String, path: String? = nil, entity: String? = nil, property: String? = nil,
                sql: String? = nil, planError: MigrationError? = nil, storeError: StoreError? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.entity = entity
        self.property = property
        self.sql = sql
        self.planError = planError
        self.storeError = storeError
    }

    public var description: String {
        var text = "\(code.rawValue): \(message)"
        if let entity { text += " (\(entity)\(property.map { ".\($0)" } ?? ""))" }
        if let path { text += " [\(path)]" }
        if let sql { text += " SQL: \(sql)" }
        return text
    }

    func at(path: String) -> StoreMigrationError {
        var copy = self
        if copy.path == nil { copy.path = path }
        return copy
    }
}
