/// A column of a table Core Data lays out, with the type it declares.
public struct ColumnLayout: Sendable, Hashable {
    public var name: String
    /// `INTEGER`, `FLOAT`, `TIMESTAMP`, `DECIMAL`, `VARCHAR` or `BLOB`.
    public var sqlType: String
}

/// A table of the store: an entity hierarchy's table (`ZCAR`) or a
/// many-to-many join table (`Z_1BOOKS`).
public struct TableLayout: Sendable, Hashable {
    public var name: String
    /// Every column, in the order Core Data declares them.
    public var columns: [ColumnLayout]
    /// For a join table, its composite primary key; an entity table's key is `Z_PK`.
    public var compositePrimaryKey: [String]

    public init(name: String, columns: [ColumnLayout], compositePrimaryKey: [String] = []) {
        self.name = name
        self.columns = columns
        self.compositePrimaryKey = compositePrimaryKey
    }

    /// The `CREATE TABLE` statement, spelled as Core Data spells it, so that
    /// `sqlite_master` reads the same as in a store Core Data made.
    public var createStatement: String {
        var parts = columns.map { column in
            column.name == "Z_PK" && compositePrimaryKey.isEmpty
                ? "Z_PK INTEGER PRIMARY KEY" : "\(column.name) \(column.sqlType)"
        }
        if !compositePrimaryKey.isEmpty {
            parts.append("PRIMARY KEY (\(compositePrimaryKey.joined(separator: ", ")))")
        }
        return "CREATE TABLE \(name) ( \(parts.joined(separator: ", ")) )"
    }
}

/// An index Core Data creates: one per foreign key, one on `Z_ENT` for a
/// table holding sub-entities, one per uniqueness constraint, and one on
/// a join table's second column.
public struct IndexLayout: Sendable, Hashable {
    public var name: String
    public var table: String
    public var columns: [String]
    public var isUnique: Bool
    /// Uniqueness constraints and fetch indexes spell each column
    /// `COLLATE BINARY ASC` (or `DESC`).
    public var isCollated: Bool
    /// The columns a fetch index orders descending.
    public var descendingColumns: Set<String>

    public init(name: String, table: String, columns: [String], isUnique: Bool = false, isCollated: Bool = false,
                descendingColumns: Set<String> = []) {
        self.name = name
        self.table = table
        self.columns = columns
        self.isUnique = isUnique
        self.isCollated = isCollated
        self.descendingColumns = descendingColumns
    }

    /// The `CREATE INDEX` statement as Core Data spells it.
    public var createStatement: String {
        let list = columns.map { column in
            isCollated ? "\(column) COLLATE BINARY \(descendingColumns.contains(column) ? "DESC" : "ASC")" : column
        }.joined(separator: ", ")
        return "CREATE \(isUnique ? "UNIQUE " : "")INDEX \(name) ON \(table) (\(list))"
    }
}
