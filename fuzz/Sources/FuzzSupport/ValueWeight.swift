import PropertyList

/// The size of a value as writers see it: one unit per node plus the bytes
/// of its strings and data, counting a shared sub-tree once per reference.
enum ValueWeight {
    /// Whether `value` weighs at most `budget`. Stops as soon as the budget
    /// is spent, so a value that expands exponentially costs `budget` steps.
    static func isAtMost(_ value: PropertyListValue, _ budget: Int) -> Bool {
        var remaining = budget
        return spend(value, &remaining)
    }

    private static func spend(_ value: PropertyListValue, _ remaining: inout Int) -> Bool {
        remaining -= 1
        switch value {
        case .string(let string): remaining -= string.utf8.count
        case .data(let data): remaining -= data.count
        case .array(let elements):
            for element in elements where !spend(element, &remaining) { return false }
        case .dictionary(let entries):
            for (key, element) in entries {
                remaining -= key.utf8.count
                if !spend(element, &remaining) { return false }
            }
        default: break
        }
        return remaining >= 0
    }
}
