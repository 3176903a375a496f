import Foundation
import GRDB

/// One predicate's compilation: the alias counter and the scopes in force.
struct PredicateCompilation {
    var resolver: SQLKeyPathResolver

    init(schema: SQLSchema) { resolver = SQLKeyPathResolver(schema: schema, aliasCounter: 0) }

    private static let isTrue = SQLFragment("1")
    private static let isFalse = SQLFragment("0")

    mutating func condition(_ predicate: FormatPredicate, root: SQLScope, variables: [String: SQLScope]) throws(PredicateSQLError) -> SQLFragment {
        switch predicate {
        case .constant(let value): return value ? Self.isTrue : Self.isFalse
        case .not(let inner): return "NOT (" + (try condition(inner, root: root, variables: variables)) + ")"
        case .and(let terms), .or(let terms):
            let isAnd = if case .and = predicate { true } else { false }
            if terms.isEmpty { return isAnd ? Self.isTrue : Self.isFalse }
            var parts: [SQLFragment] = []
            for term in terms { parts.append("(" + (try condition(term, root: root, variables: variables)) + ")") }
            return "(" + SQLFragment.joined(parts, separator: isAnd ? " AND " : " OR ") + ")"
        case .comparison(let comparison):
            return try self.comparison(comparison, root: root, variables: variables)
        }
    }

    // MARK: Operands

    mutating func operand(_ expression: FormatExpression, root: SQLScope, variables: [String: SQLScope]) throws(PredicateSQLError) -> SQLOperand {
        switch expression {
        case .constant(let value): return .constant(value)
        case .evaluatedObject: return .reference(SQLFragment("\(root.alias).Z_PK"))
        case .variable(let name):
            guard let scope = variables[name] else { throw PredicateSQLError(.unboundVariable, text: "$" + name) }
            return .reference(SQLFragment("\(scope.alias).Z_PK"))
        case .aggregate:
            throw PredicateSQLError(.unsupported, text: expression.description, detail: "a list of non-constant expressions")
        case .subquery:
            throw PredicateSQLError(.unsupported, text: expression.description, detail: "SUBQUERY is only supported with .@count")
        case .keyPath(let base, let components):
            let scope: SQLScope
            switch base {
            case .evaluatedObject: scope = root
            case .variable(let name):
                guard let bound = variables[name] else { throw PredicateSQLError(.unboundVariable, text: "$" + name) }
                scope = bound
            case .subquery(let collection, let variable, let predicate):
                guard components == [.collectionOperator(.count)] else {
                    throw PredicateSQLError(.unsupported, text: expression.description, detail: "SUBQUERY is only supported with .@count")
                }
                return try subqueryCount(collection, variable: variable, predicate: predicate, root: root, variables: variables)
            default:
                throw PredicateSQLError(.unsupported, text: expression.description, detail: "keys of a constant")
            }
            let path = expression.description
            guard let operatorIndex = components.firstIndex(where: { if case .collectionOperator = $0 { true } else { false } }) else {
                return try resolver.resolve(Self.keys(components), from: scope, path: path)
            }
            guard case .collectionOperator(let op) = components[operatorIndex] else { return .constant(.null) }
            let before = Self.keys(Array(components[..<operatorIndex]))
            let after = Array(components[(operatorIndex + 1)...])
            guard after.allSatisfy({ if case .key = $0 { true } else { false } }) else {
                throw PredicateSQLError(.unsupported, text: path, detail: "one collection operator per key path")
            }
            let collection = try resolver.resolve(before + Self.keys(after), from: scope, path: path)
            guard case .toMany(let range) = collection else {
                throw PredicateSQLError(.unsupported, text: path, detail: "@\(op.rawValue) needs a to-many relationship")
            }
            return try aggregate(op, range, path: path, hasKeyAfter: !after.isEmpty)
        }
    }

    private static func keys(_ components: [KeyPathComponent]) -> [String] {
        components.compactMap { if case .key(let key) = $0 { key } else { nil } }
    }

    private func aggregate(_ op: CollectionOperator, _ range: SQLRange, path: String, hasKeyAfter: Bool) throws(PredicateSQLError) -> SQLOperand {
        if op == .count { return .scalar(SQLFragment("(SELECT COUNT(*) \(range.clause))"), kind: nil) }
        guard case .scalar(let leaf, let kind) = range.leaf else {
            throw PredicateSQLError(.unsupported, text: path, detail: "@\(op.rawValue) needs an attribute")
        }
        switch op {
        case .sum: return .scalar("(SELECT coalesce(SUM(" + leaf + "), 0) \(range.clause))", kind: nil)
        case .avg: return .scalar("(SELECT AVG(" + leaf + ") \(range.clause))", kind: nil)
        case .min: return .scalar("(SELECT MIN(" + leaf + ") \(range.clause))", kind: kind)
        case .max: return .scalar("(SELECT MAX(" + leaf + ") \(range.clause))", kind: kind)
        case .count: return .constant(.null)
        }
    }

    private mutating func subqueryCount(_ collection: FormatExpression, variable: String, predicate: FormatPredicate, root: SQLScope, variables: [String: SQLScope]) throws(PredicateSQLError) -> SQLOperand {
        guard case .toMany(let range) = try operand(collection, root: root, variables: variables) else {
            throw PredicateSQLError(.unsupported, text: collection.description, detail: "SUBQUERY needs a to-many relationship")
        }
        var inner = variables
        inner[variable] = range.last
        let condition = try condition(predicate, root: root, variables: inner)
        return .scalar("(SELECT COUNT(*) " + range.clause(and: "(" + condition + ")") + ")", kind: nil)
    }

    // MARK: Comparisons

    private mutating func comparison(_ comparison: FormatComparison, root: SQLScope, variables: [String: SQLScope]) throws(PredicateSQLError) -> SQLFragment {
        let left = try operand(comparison.left, root: root, variables: variables)
        let right = try operand(comparison.right, root: root, variables: variables)
        if case .toMany(let range) = right {
            guard comparison.operator == .in, !Self.isToMany(left) else {
                throw PredicateSQLError(.unsupported, text: comparison.description, detail: "a to-many key path on the right")
            }
            let equal = try test(left, .equalTo, range.leaf, comparison.options, comparison)
            return "EXISTS (SELECT 1 " + range.clause(and: equal) + ")"
        }
        switch (left, comparison.modifier) {
        case (.toMany(let range), let modifier):
            let test = try test(range.leaf, comparison.operator, right, comparison.options, comparison)
            let quantified = modifier == .all
                ? "NOT EXISTS (SELECT 1 " + range.clause(and: "NOT (" + test + ")") + ")"
                : "EXISTS (SELECT 1 " + range.clause(and: test) + ")"
            guard let head = range.head else { return quantified }
            let unset = try self.test(.constant(.null), comparison.operator, right, comparison.options, comparison)
            return "(CASE WHEN " + head + " IS NULL THEN " + unset + " ELSE " + quantified + " END)"
        case (.constant(.collection(let members)), .any), (.constant(.collection(let members)), .all):
            var parts: [SQLFragment] = []
            for member in members {
                parts.append("(" + (try test(.constant(member), comparison.operator, right, comparison.options, comparison)) + ")")
            }
            if parts.isEmpty { return comparison.modifier == .all ? Self.isTrue : Self.isFalse }
            return "(" + SQLFragment.joined(parts, separator: comparison.modifier == .all ? " AND " : " OR ") + ")"
        default:
            return try test(left, comparison.operator, right, comparison.options, comparison)
        }
    }

    private static func isToMany(_ operand: SQLOperand) -> Bool {
        if case .toMany = operand { return true }
        return false
    }

    /// The category of an operand's values: a row reference is its `Z_PK`, a number.
    private static func category(_ operand: SQLOperand) -> ValueOrdering.Category? {
        switch operand {
        case .constant(let value): ValueOrdering.category(value)
        case .scalar(_, let kind): kind?.category ?? .number
        case .reference: .number
        case .toMany: nil
        }
    }

    /// One comparison of two single values, as a 0/1 expression.
    private func test(_ left: SQLOperand, _ op: ComparisonOperator, _ right: SQLOperand, _ options: ComparisonOptions, _ comparison: FormatComparison) throws(PredicateSQLError) -> SQLFragment {
        if case .toMany = left { throw PredicateSQLError(.unsupported, text: comparison.description, detail: "nested to-many") }
        // Two constants: decide now, with the in-memory rules.
        if case .constant(let a) = left, case .constant(let b) = right {
            let predicate = FormatPredicate.comparison(FormatComparison(.constant(a), op, .constant(b), options: options))
            do {
                return try predicate.evaluate(with: DictionarySubject([:])) ? Self.isTrue : Self.isFalse
            } catch {
                throw PredicateSQLError(.invalidRegularExpression, text: comparison.description, detail: error.description)
            }
        }
        let folding = options.folding
        switch op {
        case .equalTo, .notEqualTo:
            let equal = try equality(left, right, folding)
            if op == .equalTo { return equal }
            return "NOT " + equal
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            return ordering(left, op.rawValue, right, folding)
        case .between:
            guard case .constant(.collection(let bounds)) = right, bounds.count == 2 else {
                throw PredicateSQLError(.unsupported, text: comparison.description, detail: "BETWEEN needs two constant bounds")
            }
            return "(" + ordering(left, ">=", .constant(bounds[0]), folding) + " AND "
                + ordering(left, "<=", .constant(bounds[1]), folding) + ")"
        case .in:
            switch right {
            case .constant(.collection(let members)):
                return membership(left, members, folding)
            case .constant(.null): return Self.isFalse
            default:
                // `x IN "text"` and `x IN name`: the right contains the left.
                return textTest(.contains, haystack: right, needle: left, folding)
            }
        case .contains:
            if case .constant(.collection(let members)) = left { return membership(right, members, folding) }
            return textTest(.contains, haystack: left, needle: right, folding)
        case .beginsWith, .endsWith:
            return textTest(op, haystack: left, needle: right, folding)
        case .like, .matches:
            guard Self.category(left) == .text, Self.category(right) == .text else { return Self.isFalse }
            if op == .matches, case .constant(let pattern) = right, let text = ValueOrdering.text(pattern) {
                do { _ = try RegexCache.regex(text, caseInsensitive: folding.contains(.caseInsensitive)) } catch {
                    throw PredicateSQLError(.invalidRegularExpression, text: text, detail: error.description)
                }
            }
            let function = op == .like ? PredicateFunctions.like : PredicateFunctions.matches
            return "\(function)(" + value(left, []) + ", " + value(right, []) + ", \(options.rawValue))"
        }
    }

    /// A value's SQL, folded when `folding` applies to text; constants are folded here, once.
    private func value(_ operand: SQLOperand, _ folding: ComparisonOptions) -> SQLFragment {
        switch operand {
        case .constant(let constant):
            if !folding.isEmpty, let text = ValueOrdering.text(constant) {
                return .argument(StringFolding.fold(text, folding).databaseValue)
            }
            return .argument(constant.databaseValue)
        case .scalar(let fragment, let kind):
            if !folding.isEmpty, kind?.category == .text {
                return "\(PredicateFunctions.fold)(" + fragment + ", \(folding.rawValue))"
            }
            return fragment
        case .reference(let fragment): return fragment
        case .toMany: return SQLFragment("NULL")
        }
    }

    private static func isNull(_ operand: SQLOperand) -> Bool {
        if case .constant(.null) = operand { return true }
        return false
    }

    private func equality(_ left: SQLOperand, _ right: SQLOperand, _ folding: ComparisonOptions) throws(PredicateSQLError) -> SQLFragment {
        if Self.isNull(right) { return "(" + value(left, []) + " IS NULL)" }
        if Self.isNull(left) { return "(" + value(right, []) + " IS NULL)" }
        let a = Self.category(left), b = Self.category(right)
        // Values of different categories are never equal.
        guard let a, let b, a == b else { return Self.isFalse }
        return "(" + value(left, folding) + " IS " + value(right, folding) + ")"
    }

    private func ordering(_ left: SQLOperand, _ op: String, _ right: SQLOperand, _ folding: ComparisonOptions) -> SQLFragment {
        let a = Self.category(left), b = Self.category(right)
        guard let a, let b, a == b, a != .null, a != .collection else { return Self.isFalse }
        let comparison = value(left, folding) + " \(op) " + value(right, folding)
        // A subquery is evaluated once under coalesce; a column keeps its guard, so that
        // SQLite can still use an index for the range.
        if Self.isSubquery(left) || Self.isSubquery(right) { return "coalesce(" + comparison + ", 0)" }
        var parts: [SQLFragment] = []
        if case .constant = left {} else { parts.append(value(left, []) + " IS NOT NULL") }
        if case .constant = right {} else { parts.append(value(right, []) + " IS NOT NULL") }
        parts.append(comparison)
        return "(" + SQLFragment.joined(parts, separator: " AND ") + ")"
    }

    private static func isSubquery(_ operand: SQLOperand) -> Bool {
        if case .scalar(let fragment, _) = operand { return fragment.sql.hasPrefix("(") }
        return false
    }

    private func membership(_ element: SQLOperand, _ members: [AttributeValue], _ folding: ComparisonOptions) -> SQLFragment {
        guard let category = Self.category(element) else {
            return members.contains(.null) ? "(" + value(element, []) + " IS NULL)" : Self.isFalse
        }
        var parts: [SQLFragment] = []
        let candidates = members.filter { ValueOrdering.category($0) == category }
        if !candidates.isEmpty {
            let list = SQLFragment.joined(candidates.map { value(.constant($0), folding) }, separator: ", ")
            parts.append("coalesce(" + value(element, folding) + " IN (" + list + "), 0)")
        }
        if members.contains(.null) { parts.append(value(element, []) + " IS NULL") }
        if parts.isEmpty { return Self.isFalse }
        return "(" + SQLFragment.joined(parts, separator: " OR ") + ")"
    }

    /// `CONTAINS`, `BEGINSWITH`, `ENDSWITH` of text. Without modifiers and with a constant,
    /// `CONTAINS` is SQLite's own `instr`; otherwise a registered function that folds the
    /// haystack (the needle is folded here when constant).
    private func textTest(_ op: ComparisonOperator, haystack: SQLOperand, needle: SQLOperand, _ folding: ComparisonOptions) -> SQLFragment {
        guard Self.category(haystack) == .text, Self.category(needle) == .text else { return Self.isFalse }
        if case .constant(let constant) = needle, ValueOrdering.text(constant)?.isEmpty ?? true { return Self.isFalse }
        if op == .contains, folding.isEmpty, case .constant = needle {
            return "(coalesce(instr(" + value(haystack, []) + ", " + value(needle, []) + "), 0) > 0)"
        }
        let function = switch op {
        case .beginsWith: PredicateFunctions.beginsWith
        case .endsWith: PredicateFunctions.endsWith
        default: PredicateFunctions.contains
        }
        let test: SQLFragment = "\(function)(" + value(haystack, []) + ", " + value(needle, folding) + ", \(folding.rawValue))"
        guard let filter = Self.likePrefilter(op, haystack: value(haystack, []), needle: needle, folding) else { return test }
        return "(" + filter + " AND " + test + ")"
    }

    /// SQLite's own `LIKE` in front of the search function, when it is a
    /// necessary condition: `[c]` alone with an ASCII needle matches only
    /// where the row holds the needle's bytes, ASCII case aside (the search
    /// treats other characters as walls), except through the three
    /// characters that fold to a lone ASCII one (the Kelvin sign to "k", the
    /// Greek question mark to ";", varia to "`"), so a needle without those
    /// letters qualifies. `LIKE` costs no function call, so most rows are
    /// refused at SQLite's own speed and the function sees only candidates.
    private static func likePrefilter(_ op: ComparisonOperator, haystack: SQLFragment, needle: SQLOperand,
                                      _ folding: ComparisonOptions) -> SQLFragment? {
        guard folding == .caseInsensitive, case .constant(let constant) = needle, let text = ValueOrdering.text(constant),
              !text.isEmpty, text.utf8.allSatisfy({ $0 < 0x80 }),
              !text.lowercased().contains(where: { "k;`".contains($0) }) else { return nil }
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        let pattern = switch op {
        case .beginsWith: escaped + "%"
        case .endsWith: "%" + escaped
        default: "%" + escaped + "%"
        }
        return "(" + haystack + " LIKE " + .argument(pattern.databaseValue) + " ESCAPE '\\')"
    }
}
