import Foundation
import GRDB

/// The SQL `WHERE` clause of a query: its class, its attributes, and the
/// access groups the caller may see.
struct ItemFilter {
    var clauses: [String] = []
    var arguments = StatementArguments()

    /// Items of `query`'s class whose attributes equal the query's set ones,
    /// in `groups` (`nil`: every group).
    init(_ query: KeychainQuery, groups: [String]?) {
        add("class", query.itemClass.rawValue)
        let attributes = query.attributes
        if let value = attributes.service { add("service", value) }
        if let value = attributes.account { add("account", value) }
        if let value = attributes.server { add("server", value) }
        if let value = attributes.protocol { add("protocol", value.rawValue) }
        if let value = attributes.port { add("port", Int64(value)) }
        if let value = attributes.path { add("path", value) }
        if let value = attributes.label { add("label", value) }
        if let value = attributes.applicationTag { add("applicationTag", value) }
        if let value = attributes.accessGroup { add("accessGroup", value) }
        if let value = attributes.accessibility { add("accessibility", value.rawValue) }
        if let groups { inGroups(groups) }
    }

    /// Items in any of `groups`.
    init(groups: [String]) { inGroups(groups) }

    private mutating func add(_ column: String, _ value: some DatabaseValueConvertible) {
        clauses.append("\(column) = ?")
        arguments += [value]
    }

    private mutating func inGroups(_ groups: [String]) {
        guard !groups.isEmpty else {
            clauses.append("0")
            return
        }
        clauses.append("accessGroup IN (\(Array(repeating: "?", count: groups.count).joined(separator: ", ")))")
        arguments += StatementArguments(groups)
    }

    var sql: String { clauses.isEmpty ? "1" : clauses.joined(separator: " AND ") }

    /// The matching items, in the order they were added.
    func fetch(_ db: Database, limit: Int? = nil) throws -> [StoredItem] {
        let limitClause = limit.map { " LIMIT \($0)" } ?? ""
        return try Row.fetchAll(db, sql: "SELECT \(StoredItem.columns) FROM item WHERE \(sql) ORDER BY rowOrder\(limitClause)",
                                arguments: arguments).map(StoredItem.init(row:))
    }
}
