import GRDB

/// A piece of SQL with its `?` arguments, in the order they appear.
public struct PredicateSQL {
    public var sql: String
    public var arguments: StatementArguments

    public init(sql: String, arguments: StatementArguments = StatementArguments()) {
        self.sql = sql
        self.arguments = arguments
    }
}

/// SQL text and its arguments built together, so arguments stay in textual order however the text is assembled.
struct SQLFragment {
    var sql: String
    var arguments: [DatabaseValue]

    init(_ sql: String, _ arguments: [DatabaseValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    static func + (a: SQLFragment, b: SQLFragment) -> SQLFragment {
        SQLFragment(a.sql + b.sql, a.arguments + b.arguments)
    }

    static func + (a: SQLFragment, b: String) -> SQLFragment { SQLFragment(a.sql + b, a.arguments) }
    static func + (a: String, b: SQLFragment) -> SQLFragment { SQLFragment(a + b.sql, b.arguments) }

    static func argument(_ value: DatabaseValue) -> SQLFragment { SQLFragment("?", [value]) }

    static func joined(_ parts: [SQLFragment], separator: String) -> SQLFragment {
        var result = SQLFragment("")
        for (index, part) in parts.enumerated() {
            if index > 0 { result.sql += separator }
            result = result + part
        }
        return result
    }

    var predicateSQL: PredicateSQL { PredicateSQL(sql: sql, arguments: StatementArguments(arguments)) }
}
