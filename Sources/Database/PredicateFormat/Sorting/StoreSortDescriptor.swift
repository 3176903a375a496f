/// A sort descriptor: a key path (through to-one relationships), a direction
/// and a string comparison. It compiles to `ORDER BY` terms
/// (``PredicateSQLCompiler/orderingTerms(for:entity:alias:)``) and compares
/// in memory with exactly the same order: `nil` first when ascending (last
/// when descending), numbers before text before data, as SQLite does.
///
/// The final tiebreak (Core Data's `Z_PK`) is the caller's.
public struct StoreSortDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// Dotted: `"name"`, `"owner.name"`.
    public var keyPath: String
    public var ascending: Bool
    public var comparison: SortComparison

    public init(keyPath: String, ascending: Bool = true, comparison: SortComparison = .compare) {
        self.keyPath = keyPath
        self.ascending = ascending
        self.comparison = comparison
    }

    var keys: [String] { keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }

    /// `name ASC localizedCompare`, for fingerprints and messages.
    public var description: String {
        "\(keyPath) \(ascending ? "ASC" : "DESC") \(comparison.rawValue)"
    }

    /// -1, 0 or 1 for two values of the key, in this descriptor's direction.
    public func compareValues(_ a: AttributeValue, _ b: AttributeValue) -> Int {
        let order: Int
        if let x = ValueOrdering.text(a), let y = ValueOrdering.text(b) {
            order = comparison.compareStrings(x, y)
        } else {
            order = ValueOrdering.order(a, b)
        }
        return ascending ? order : -order
    }

    /// The key's value on `subject` (`nil` through an unset to-one).
    public func value(of subject: any PredicateSubject) throws(PredicateEvaluationError) -> AttributeValue {
        var current: any PredicateSubject = subject
        let keys = self.keys
        for (index, key) in keys.enumerated() {
            switch current.value(forKey: key) {
            case .attribute(let value):
                guard index == keys.count - 1 else {
                    throw PredicateEvaluationError(.notAnObject, text: keyPath, detail: "\"\(key)\" is an attribute")
                }
                return value
            case .toOne(let related):
                guard let related else { return .null }
                // Ending on a to-one sorts by the destination's key, as the SQL sorts by the foreign key.
                if index == keys.count - 1 { return related.objectKey.map { .integer($0) } ?? .null }
                current = related
            case .toMany:
                throw PredicateEvaluationError(.unsupported, text: keyPath, detail: "a sort key through a to-many relationship")
            case .noSuchKey:
                throw PredicateEvaluationError(.noSuchKey, text: key, detail: keyPath)
            }
        }
        throw PredicateEvaluationError(.unsupported, text: keyPath, detail: "a sort key must end on an attribute")
    }
}

extension Array where Element == StoreSortDescriptor {
    /// -1, 0 or 1: the first descriptor that orders `a` and `b` decides.
    public func compare(_ a: any PredicateSubject, _ b: any PredicateSubject) throws(PredicateEvaluationError) -> Int {
        for descriptor in self {
            let order = descriptor.compareValues(try descriptor.value(of: a), try descriptor.value(of: b))
            if order != 0 { return order }
        }
        return 0
    }
}
