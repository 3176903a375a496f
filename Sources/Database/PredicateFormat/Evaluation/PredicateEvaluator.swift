import Foundation

extension FormatPredicate {
    /// Evaluates the predicate against `subject` in memory, with NSPredicate's
    /// semantics and the same answers as the SQL that ``PredicateSQLCompiler`` emits.
    ///
    /// - Parameter variables: values for free `$VARIABLE`s not yet substituted.
    /// - Throws: ``PredicateEvaluationError`` for a missing key, an unbound
    ///   variable or a bad regular expression.
    public func evaluate(with subject: any PredicateSubject, variables: [String: AttributeValue] = [:]) throws(PredicateEvaluationError) -> Bool {
        let evaluator = PredicateEvaluator(variables: variables)
        return try evaluator.evaluate(self, object: subject, bound: [:])
    }
}

/// What an expression evaluates to in memory.
enum Operand {
    /// A scalar, or a constant collection.
    case value(AttributeValue)
    case object(any PredicateSubject)
    /// Members of a to-many relationship (or of a subquery).
    case objects([any PredicateSubject])
    /// Values through a to-many relationship: compared as `ANY`.
    case values([AttributeValue])

    /// The elements a quantifier (`ANY`, `ALL`, implicit any) ranges over.
    var elements: [Operand]? {
        switch self {
        case .value(.collection(let members)): members.map { .value($0) }
        case .objects(let objects): objects.map { .object($0) }
        case .values(let values): values.map { .value($0) }
        default: nil
        }
    }

    var isToMany: Bool {
        switch self {
        case .objects, .values: true
        default: false
        }
    }
}

struct PredicateEvaluator {
    var variables: [String: AttributeValue]

    func evaluate(_ predicate: FormatPredicate, object: any PredicateSubject, bound: [String: any PredicateSubject]) throws(PredicateEvaluationError) -> Bool {
        switch predicate {
        case .constant(let value): return value
        case .not(let inner): return try !evaluate(inner, object: object, bound: bound)
        case .and(let terms):
            for term in terms where try !evaluate(term, object: object, bound: bound) { return false }
            return true
        case .or(let terms):
            for term in terms where try evaluate(term, object: object, bound: bound) { return true }
            return false
        case .comparison(let comparison):
            return try evaluate(comparison, object: object, bound: bound)
        }
    }

    private func evaluate(_ comparison: FormatComparison, object: any PredicateSubject, bound: [String: any PredicateSubject]) throws(PredicateEvaluationError) -> Bool {
        let left = try operand(comparison.left, object: object, bound: bound)
        let right = try operand(comparison.right, object: object, bound: bound)
        if case .objects = right, comparison.operator != .in {
            throw PredicateEvaluationError(.unsupported, text: comparison.right.description,
                                           detail: "a to-many relationship on the right of \(comparison.operator.rawValue)")
        }
        if case .values = right, comparison.operator != .in {
            throw PredicateEvaluationError(.unsupported, text: comparison.right.description,
                                           detail: "a to-many key path on the right of \(comparison.operator.rawValue)")
        }
        let quantified = comparison.modifier != .direct || left.isToMany
        guard quantified else { return try test(left, comparison, right) }
        // ANY or ALL of a single value (a to-one key path) is that value's comparison, as in SQL.
        let elements = left.elements ?? [left]
        if comparison.modifier == .all {
            for element in elements where try !test(element, comparison, right) { return false }
            return true
        }
        for element in elements where try test(element, comparison, right) { return true }
        return false
    }

    /// One scalar comparison.
    private func test(_ left: Operand, _ comparison: FormatComparison, _ right: Operand) throws(PredicateEvaluationError) -> Bool {
        let options = comparison.options
        let leftValue = try scalar(left, comparison.left)
        switch comparison.operator {
        case .in:
            switch right {
            case .value(.string(let text)):
                guard let needle = ValueOrdering.text(leftValue) else { return false }
                return TextSearch.test(.contains, StringFolding.fold(text, options), StringFolding.fold(needle, options))
            case .value(.null): return false
            default:
                // IN a single non-text value: nothing is in it.
                guard let members = right.elements else { return false }
                for member in members where ValueOrdering.equal(leftValue, try scalar(member, comparison.right), options: options) {
                    return true
                }
                return false
            }
        case .between:
            guard case .value(.collection(let bounds)) = right, bounds.count == 2 else {
                throw PredicateEvaluationError(.notACollection, text: comparison.right.description, detail: "BETWEEN needs {lower, upper}")
            }
            guard let low = ValueOrdering.compare(leftValue, bounds[0], options: options),
                  let high = ValueOrdering.compare(leftValue, bounds[1], options: options) else { return false }
            return low >= 0 && high <= 0
        default: break
        }
        let rightValue = try scalar(right, comparison.right)
        switch comparison.operator {
        case .equalTo: return ValueOrdering.equal(leftValue, rightValue, options: options)
        case .notEqualTo: return !ValueOrdering.equal(leftValue, rightValue, options: options)
        case .lessThan: return ValueOrdering.compare(leftValue, rightValue, options: options).map { $0 < 0 } ?? false
        case .lessThanOrEqualTo: return ValueOrdering.compare(leftValue, rightValue, options: options).map { $0 <= 0 } ?? false
        case .greaterThan: return ValueOrdering.compare(leftValue, rightValue, options: options).map { $0 > 0 } ?? false
        case .greaterThanOrEqualTo: return ValueOrdering.compare(leftValue, rightValue, options: options).map { $0 >= 0 } ?? false
        case .contains:
            if case .collection(let members) = leftValue {
                return members.contains { ValueOrdering.equal($0, rightValue, options: options) }
            }
            fallthrough
        case .beginsWith, .endsWith:
            guard let text = ValueOrdering.text(leftValue), let needle = ValueOrdering.text(rightValue) else { return false }
            return TextSearch.test(comparison.operator, StringFolding.fold(text, options), StringFolding.fold(needle, options))
        case .like:
            guard let text = ValueOrdering.text(leftValue), let pattern = ValueOrdering.text(rightValue) else { return false }
            return PatternMatching.like(text, pattern: pattern, options: options)
        case .matches:
            guard let text = ValueOrdering.text(leftValue), let pattern = ValueOrdering.text(rightValue) else { return false }
            return try PatternMatching.matches(text, pattern: pattern, options: options)
        case .in, .between: return false
        }
    }

    /// A scalar operand's value; an object is its primary key, as in SQL.
    private func scalar(_ operand: Operand, _ expression: FormatExpression) throws(PredicateEvaluationError) -> AttributeValue {
        switch operand {
        case .value(let value): return value
        case .object(let subject):
            if let key = subject.objectKey { return .integer(key) }
            // With no key, a placeholder unequal to `nil` and to every value: a
            // one-element collection is never equal to a scalar or to `nil`.
            return .collection([.null])
        case .objects, .values:
            throw PredicateEvaluationError(.unsupported, text: expression.description, detail: "a collection where a value is needed")
        }
    }

    func operand(_ expression: FormatExpression, object: any PredicateSubject, bound: [String: any PredicateSubject]) throws(PredicateEvaluationError) -> Operand {
        switch expression {
        case .constant(let value): return .value(value)
        case .evaluatedObject: return .object(object)
        case .variable(let name):
            if let subject = bound[name] { return .object(subject) }
            if let value = variables[name] { return .value(value) }
            throw PredicateEvaluationError(.unboundVariable, text: "$" + name)
        case .aggregate(let members):
            var values: [AttributeValue] = []
            for member in members {
                let result = try operand(member, object: object, bound: bound)
                values.append(try scalar(result, member))
            }
            return .value(.collection(values))
        case .subquery(let collection, let variable, let predicate):
            let source = try operand(collection, object: object, bound: bound)
            let members: [any PredicateSubject]
            switch source {
            case .objects(let objects): members = objects
            case .object(let single): members = [single]
            case .value(.null): members = []
            default:
                throw PredicateEvaluationError(.notACollection, text: collection.description, detail: "SUBQUERY needs a to-many relationship")
            }
            var kept: [any PredicateSubject] = []
            for member in members {
                var inner = bound
                inner[variable] = member
                if try evaluate(predicate, object: object, bound: inner) { kept.append(member) }
            }
            return .objects(kept)
        case .keyPath(let base, let components):
            let start = try operand(base, object: object, bound: bound)
            return try follow(components[...], from: start, expression: expression)
        }
    }

    private func follow(_ components: ArraySlice<KeyPathComponent>, from start: Operand, expression: FormatExpression) throws(PredicateEvaluationError) -> Operand {
        var current = start
        var remaining = components
        while let component = remaining.first {
            remaining = remaining.dropFirst()
            switch component {
            case .key(let key):
                current = try step(current, key: key, expression: expression)
            case .collectionOperator(let op):
                let collection = try follow(remaining, from: current, expression: expression)
                return .value(try aggregate(op, collection, expression: expression))
            }
        }
        return current
    }

    private func step(_ current: Operand, key: String, expression: FormatExpression) throws(PredicateEvaluationError) -> Operand {
        switch current {
        case .value(.null): return .value(.null)
        case .value, .values:
            throw PredicateEvaluationError(.notAnObject, text: expression.description, detail: "\"\(key)\" of a value")
        case .object(let subject):
            switch subject.value(forKey: key) {
            case .attribute(let value): return .value(value)
            case .toOne(let related): return related.map { .object($0) } ?? .value(.null)
            case .toMany(let members): return .objects(members)
            case .noSuchKey: throw PredicateEvaluationError(.noSuchKey, text: key, detail: expression.description)
            }
        case .objects(let members):
            // Nothing reached: stay a collection of objects, whatever the key names.
            if members.isEmpty { return current }
            var values: [AttributeValue] = []
            var objects: [any PredicateSubject] = []
            var sawObjects = false
            for member in members {
                switch member.value(forKey: key) {
                case .attribute(let value): values.append(value)
                case .toOne(let related):
                    sawObjects = true
                    if let related { objects.append(related) }
                case .toMany(let related):
                    sawObjects = true
                    objects += related
                case .noSuchKey: throw PredicateEvaluationError(.noSuchKey, text: key, detail: expression.description)
                }
            }
            return sawObjects ? .objects(objects) : .values(values)
        }
    }

    /// `@count`, `@sum`, `@avg`, `@min`, `@max`, as SQLite's `COUNT`, `SUM`, `AVG`, `MIN`, `MAX` compute them:
    /// `nil`s skipped, `@sum` of nothing is 0, `@avg`, `@min`, `@max` of nothing are `nil`.
    private func aggregate(_ op: CollectionOperator, _ collection: Operand, expression: FormatExpression) throws(PredicateEvaluationError) -> AttributeValue {
        let values: [AttributeValue]
        switch collection {
        case .objects(let objects):
            if op == .count { return .integer(Int64(objects.count)) }
            guard objects.isEmpty else {
                throw PredicateEvaluationError(.unsupported, text: expression.description, detail: "@\(op.rawValue) needs a key after it")
            }
            values = []
        case .values(let members), .value(.collection(let members)): values = members
        case .value(.null): values = []
        default:
            throw PredicateEvaluationError(.notACollection, text: expression.description, detail: "@\(op.rawValue) of a single value")
        }
        switch op {
        case .count: return .integer(Int64(values.count))
        case .sum, .avg:
            var integerSum: Int64 = 0, doubleSum = 0.0, allIntegers = true, count = 0
            for value in values {
                switch ValueOrdering.number(value) {
                case .integer(let integer)?:
                    integerSum &+= integer
                    doubleSum += Double(integer)
                    count += 1
                case .double(let double)?:
                    allIntegers = false
                    doubleSum += double
                    count += 1
                case nil:
                    if case .null = value { continue }
                    // SQLite sums a text value as 0 (or its numeric prefix); keep the
                    // count so @avg agrees, add nothing.
                    allIntegers = false
                    count += 1
                }
            }
            if op == .avg { return count == 0 ? .null : .double(doubleSum / Double(count)) }
            return allIntegers ? .integer(integerSum) : .double(doubleSum)
        case .min, .max:
            var best: AttributeValue?
            for value in values {
                if case .null = value { continue }
                guard let current = best else { best = value; continue }
                let order = ValueOrdering.order(value, current)
                if (op == .min && order < 0) || (op == .max && order > 0) { best = value }
            }
            return best ?? .null
        }
    }
}
