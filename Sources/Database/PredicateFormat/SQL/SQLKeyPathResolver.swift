import GRDB

/// A row in scope while compiling: the root (`t0`), or a `SUBQUERY` variable's row.
struct SQLScope {
    var alias: String
    var entity: SQLEntityMapping
}

/// What an expression compiles to.
indirect enum SQLOperand {
    case constant(AttributeValue)
    /// A value: a column, a scalar subquery, an aggregate. `kind` is `nil` for computed numbers.
    case scalar(SQLFragment, kind: AttributeValueKind?)
    /// A reference to a row (a to-one foreign key, `SELF`): only compares with `nil`.
    case reference(SQLFragment)
    /// Rows reached through a to-many relationship: compared as `ANY` with an `EXISTS`.
    case toMany(SQLRange)
}

/// `FROM … WHERE …` of the rows a to-many key path reaches, with the value reached in each row.
struct SQLRange {
    var from: [String]
    var conditions: [String]
    /// The value in each row (a column, a reference, or the last alias's row itself).
    var leaf: SQLOperand
    /// The last alias and its entity, for `@count` and `SUBQUERY`.
    var last: SQLScope
    /// When to-one hops come before the first to-many one (`dept.people.name`): an
    /// expression that is NULL when one of them is unset. Then, as in memory, the
    /// key path's value is a single `nil`, not an empty collection.
    var head: SQLFragment?

    /// `FROM a, b WHERE c AND d` (no trailing condition joiner).
    var clause: String {
        "FROM " + from.joined(separator: ", ") + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
    }

    func clause(and condition: SQLFragment) -> SQLFragment {
        "FROM " + from.joined(separator: ", ") + " WHERE " + (conditions + [""]).joined(separator: " AND ") + condition
    }
}

/// Walks key paths through the schema, producing columns, scalar subqueries
/// for to-one chains, and ranges for to-many chains.
struct SQLKeyPathResolver {
    let schema: SQLSchema
    private(set) var aliasCounter: Int

    init(schema: SQLSchema, aliasCounter: Int) {
        self.schema = schema
        self.aliasCounter = aliasCounter
    }

    mutating func newAlias() -> String {
        aliasCounter += 1
        return "t\(aliasCounter)"
    }

    func entity(_ name: String) throws(PredicateSQLError) -> SQLEntityMapping {
        guard let entity = schema.entities[name] else { throw PredicateSQLError(.unknownEntity, text: name) }
        return entity
    }

    static func entityFilter(_ entity: SQLEntityMapping, alias: String) -> String? {
        guard let ids = entity.entityIDs else { return nil }
        if ids.count == 1 { return "\(alias).Z_ENT = \(ids[0])" }
        return "\(alias).Z_ENT IN (" + ids.map(String.init).joined(separator: ", ") + ")"
    }

    /// Follows `keys` from `scope`. The result is a column or reference in `scope`'s row, a scalar
    /// subquery through to-one relationships, or a range when a to-many relationship is crossed.
    mutating func resolve(_ keys: [String], from scope: SQLScope, path: String) throws(PredicateSQLError) -> SQLOperand {
        var from: [String] = []
        var conditions: [String] = []
        var current = scope
        var crossedToMany = false
        var head: SQLFragment?
        var leaf: SQLOperand = .reference(SQLFragment("\(scope.alias).Z_PK"))
        for (index, key) in keys.enumerated() {
            let isLast = index == keys.count - 1
            if let attribute = current.entity.attributes[key] {
                guard isLast else {
                    throw PredicateSQLError(.unsupported, text: path, detail: "\"\(key)\" is an attribute, it has no keys")
                }
                leaf = .scalar(SQLFragment("\(current.alias).\(attribute.column)"), kind: attribute.kind)
                break
            }
            guard let relationship = current.entity.relationships[key] else {
                throw PredicateSQLError(.unknownKey, text: key, detail: "not a key of \(current.entity.name) in \(path)")
            }
            let destination = try entity(relationship.destination)
            if case .toOne(let foreignKey) = relationship.kind, isLast {
                leaf = .reference(SQLFragment("\(current.alias).\(foreignKey)"))
                break
            }
            if relationship.isToMany, !crossedToMany, !from.isEmpty {
                head = SQLFragment("(SELECT \(current.alias).Z_PK FROM " + from.joined(separator: ", ")
                                   + " WHERE " + conditions.joined(separator: " AND ") + ")")
            }
            let alias = newAlias()
            from.append("\(destination.table) AS \(alias)")
            switch relationship.kind {
            case .toOne(let foreignKey):
                conditions.append("\(alias).Z_PK = \(current.alias).\(foreignKey)")
            case .toManyInverse(let column):
                crossedToMany = true
                conditions.append("\(alias).\(column) = \(current.alias).Z_PK")
            case .manyToMany(let joinTable, let sourceColumn, let destinationColumn):
                crossedToMany = true
                let joinAlias = newAlias()
                from.insert("\(joinTable) AS \(joinAlias)", at: from.count - 1)
                conditions.append("\(joinAlias).\(sourceColumn) = \(current.alias).Z_PK")
                conditions.append("\(alias).Z_PK = \(joinAlias).\(destinationColumn)")
            }
            if let filter = Self.entityFilter(destination, alias: alias) { conditions.append(filter) }
            current = SQLScope(alias: alias, entity: destination)
            leaf = .reference(SQLFragment("\(alias).Z_PK"))
        }
        if from.isEmpty { return leaf }
        let range = SQLRange(from: from, conditions: conditions, leaf: leaf, last: current, head: head)
        if crossedToMany { return .toMany(range) }
        // Only to-one hops: one value or NULL when a hop is unset.
        switch leaf {
        case .scalar(let column, let kind):
            return .scalar(SQLFragment("(SELECT \(column.sql) \(range.clause))"), kind: kind)
        case .reference(let column):
            return .reference(SQLFragment("(SELECT \(column.sql) \(range.clause))"))
        default:
            return leaf
        }
    }
}
