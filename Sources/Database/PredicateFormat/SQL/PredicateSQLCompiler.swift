import Foundation
import GRDB

/// Compiles predicates and sort descriptors to SQLite SQL over Core Data's
/// layout, described by an ``SQLSchema``.
///
/// The root table is aliased `t0`; relationships become correlated
/// subqueries (`EXISTS` for `ANY`/`ALL` through a to-many, scalar subqueries
/// for to-one chains, `@count` and the other aggregates), so a fetch never
/// returns a row twice. Every condition evaluates to 0 or 1, never NULL, so
/// `NOT` agrees with in-memory evaluation.
///
/// The SQL calls functions and collations that a connection must have:
/// call ``GRDB/Database/registerPredicateFunctions()`` on every connection
/// (for a pool, in `Configuration.prepareDatabase`).
///
/// ```swift
/// let compiler = PredicateSQLCompiler(schema: schema)
/// let condition = try compiler.whereClause(for: predicate, entity: "Item")
/// let rows = try Row.fetchAll(db, sql: "SELECT t0.* FROM ZITEM AS t0 WHERE \(condition.sql)",
///                             arguments: condition.arguments)
/// ```
public struct PredicateSQLCompiler: Sendable {
    public var schema: SQLSchema

    public init(schema: SQLSchema) { self.schema = schema }

    /// The condition for `predicate` on rows of `entity` aliased `alias`. It does not
    /// include the `Z_ENT` filter of a shared table: see ``entityFilter(entity:alias:)``.
    public func whereClause(for predicate: FormatPredicate, entity: String, alias: String = "t0") throws(PredicateSQLError) -> PredicateSQL {
        var compilation = PredicateCompilation(schema: schema)
        let root = SQLScope(alias: alias, entity: try compilation.resolver.entity(entity))
        return try compilation.condition(predicate, root: root, variables: [:]).predicateSQL
    }

    /// `t0.Z_ENT IN (…)` when the entity shares its table with others, else `nil`.
    public func entityFilter(entity: String, alias: String = "t0") throws(PredicateSQLError) -> String? {
        guard let mapping = schema.entities[entity] else { throw PredicateSQLError(.unknownEntity, text: entity) }
        return SQLKeyPathResolver.entityFilter(mapping, alias: alias)
    }

    /// The `ORDER BY` terms (without the keywords) for `sortDescriptors`; empty for none.
    /// Add `t0.Z_PK` yourself as the final tiebreak for a stable order.
    public func orderingTerms(for sortDescriptors: [StoreSortDescriptor], entity: String, alias: String = "t0") throws(PredicateSQLError) -> PredicateSQL {
        var resolver = SQLKeyPathResolver(schema: schema, aliasCounter: 1000)
        let root = SQLScope(alias: alias, entity: try resolver.entity(entity))
        var terms: [SQLFragment] = []
        for descriptor in sortDescriptors {
            let operand = try resolver.resolve(descriptor.keys, from: root, path: descriptor.keyPath)
            var term: SQLFragment
            switch operand {
            case .scalar(let fragment, _), .reference(let fragment): term = fragment
            case .toMany, .constant:
                throw PredicateSQLError(.unsupported, text: descriptor.keyPath, detail: "a sort key must reach one value")
            }
            if let collation = descriptor.comparison.collationName { term = term + " COLLATE \(collation)" }
            terms.append(term + (descriptor.ascending ? " ASC" : " DESC"))
        }
        return SQLFragment.joined(terms, separator: ", ").predicateSQL
    }

    /// A whole `SELECT` over `entity`: entity filter, predicate, sort (then `Z_PK`), limit and offset.
    public func selectStatement(
        entity: String, columns: String = "t0.*", predicate: FormatPredicate? = nil,
        sortDescriptors: [StoreSortDescriptor] = [], limit: Int? = nil, offset: Int? = nil
    ) throws(PredicateSQLError) -> PredicateSQL {
        guard let mapping = schema.entities[entity] else { throw PredicateSQLError(.unknownEntity, text: entity) }
        var conditions: [String] = []
        var arguments = StatementArguments()
        if let filter = SQLKeyPathResolver.entityFilter(mapping, alias: "t0") { conditions.append(filter) }
        if let predicate {
            let condition = try whereClause(for: predicate, entity: entity)
            conditions.append("(\(condition.sql))")
            arguments += condition.arguments
        }
        var sql = "SELECT \(columns) FROM \(mapping.table) AS t0"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        let ordering = try orderingTerms(for: sortDescriptors, entity: entity)
        sql += " ORDER BY " + (ordering.sql.isEmpty ? "" : ordering.sql + ", ") + "t0.Z_PK"
        arguments += ordering.arguments
        if let limit { sql += " LIMIT \(limit)" } else if offset != nil { sql += " LIMIT -1" }
        if let offset { sql += " OFFSET \(offset)" }
        return PredicateSQL(sql: sql, arguments: arguments)
    }
}
