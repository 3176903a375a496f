import Foundation

/// How two attribute values compare, the same way SQLite compares the values
/// the store writes for them: numbers (integers, doubles, decimals, booleans,
/// dates as seconds since 2001) compare by value, strings and URIs by UTF-8
/// bytes (after `[c]`/`[d]` folding), data and UUIDs by bytes; `nil` sorts
/// before everything, then numbers, then text, then data.
enum ValueOrdering {
    enum Category: Int, Comparable {
        case null = 0, number, text, blob, collection
        static func < (a: Category, b: Category) -> Bool { a.rawValue < b.rawValue }
    }

    static func category(_ value: AttributeValue) -> Category {
        switch value {
        case .null: .null
        case .bool, .integer, .double, .decimal, .date: .number
        case .string, .uri: .text
        case .data, .uuid: .blob
        case .collection: .collection
        }
    }

    enum Number { case integer(Int64), double(Double) }

    static func number(_ value: AttributeValue) -> Number? {
        switch value {
        case .bool(let flag): .integer(flag ? 1 : 0)
        case .integer(let integer): .integer(integer)
        case .double(let double): .double(double)
        case .decimal(let decimal): .double(NSDecimalNumber(decimal: decimal).doubleValue)
        case .date(let date): .double(date.timeIntervalSinceReferenceDate)
        default: nil
        }
    }

    static func text(_ value: AttributeValue) -> String? {
        switch value {
        case .string(let string): string
        case .uri(let url): url.absoluteString
        default: nil
        }
    }

    static func bytes(_ value: AttributeValue) -> [UInt8]? {
        switch value {
        case .data(let data): Array(data)
        case .uuid(let uuid): withUnsafeBytes(of: uuid.uuid) { Array($0) }
        default: nil
        }
    }

    static func compareNumbers(_ a: Number, _ b: Number) -> Int {
        switch (a, b) {
        case (.integer(let x), .integer(let y)): return x < y ? -1 : x > y ? 1 : 0
        case (.double(let x), .double(let y)): return x < y ? -1 : x > y ? 1 : 0
        case (.integer(let x), .double(let y)): return -compareDoubleToInteger(y, x)
        case (.double(let x), .integer(let y)): return compareDoubleToInteger(x, y)
        }
    }

    /// Exact, as SQLite compares an INTEGER with a REAL.
    private static func compareDoubleToInteger(_ double: Double, _ integer: Int64) -> Int {
        if double.isNaN { return -1 }
        if double < -9.223372036854775808e18 { return -1 }
        if double >= 9.223372036854775808e18 { return 1 }
        let truncated = Int64(double.rounded(.down))
        if truncated < integer { return -1 }
        if truncated > integer { return 1 }
        return double > Double(truncated) ? 1 : 0
    }

    static func compareBytes<A: Sequence, B: Sequence>(_ a: A, _ b: B) -> Int where A.Element == UInt8, B.Element == UInt8 {
        var left = a.makeIterator(), right = b.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?): if x != y { return x < y ? -1 : 1 }
            }
        }
    }

    /// A total order over scalar values, the order of SQLite's `ORDER BY` with the
    /// given folding applied to text. `nil` first.
    static func order(_ a: AttributeValue, _ b: AttributeValue, options: ComparisonOptions = []) -> Int {
        let ca = category(a), cb = category(b)
        if ca != cb { return ca < cb ? -1 : 1 }
        switch ca {
        case .null: return 0
        case .number:
            guard let x = number(a), let y = number(b) else { return 0 }
            return compareNumbers(x, y)
        case .text:
            guard let x = text(a), let y = text(b) else { return 0 }
            return compareBytes(StringFolding.fold(x, options).utf8, StringFolding.fold(y, options).utf8)
        case .blob:
            guard let x = bytes(a), let y = bytes(b) else { return 0 }
            return compareBytes(x, y)
        case .collection: return 0
        }
    }

    /// The comparison of a predicate: `nil` when the values are not comparable
    /// (one is `nil`, or they are of different categories), so every ordering
    /// operator is false for them.
    static func compare(_ a: AttributeValue, _ b: AttributeValue, options: ComparisonOptions) -> Int? {
        let ca = category(a), cb = category(b)
        guard ca == cb, ca != .null, ca != .collection else { return nil }
        return order(a, b, options: options)
    }

    /// `==` of a predicate: two `nil`s are equal; values of different categories are not.
    static func equal(_ a: AttributeValue, _ b: AttributeValue, options: ComparisonOptions) -> Bool {
        if case .null = a, case .null = b { return true }
        return compare(a, b, options: options) == 0
    }
}
