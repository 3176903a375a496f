/// How an attribute's values are stored in a Core Data SQLite column.
///
/// The store maps its attribute types onto these (integer 16/32/64 →
/// ``integer``, float/double → ``double``, transformable/binary → ``data``).
public enum AttributeValueKind: String, Sendable, Hashable, CaseIterable {
    /// INTEGER.
    case integer
    /// REAL.
    case double
    /// DECIMAL: Core Data writes the number (REAL, or INTEGER when whole), not a string.
    case decimal
    /// VARCHAR: UTF-8 text.
    case string
    /// INTEGER 0 or 1.
    case bool
    /// TIMESTAMP: REAL seconds since 2001-01-01 00:00:00 UTC (`timeIntervalSinceReferenceDate`).
    case date
    /// BLOB.
    case data
    /// BLOB of the 16 bytes of the UUID.
    case uuid
    /// VARCHAR: the URL's `absoluteString`.
    case uri

    /// The category that decides which comparisons can be true.
    var category: ValueOrdering.Category {
        switch self {
        case .integer, .double, .decimal, .bool, .date: .number
        case .string, .uri: .text
        case .data, .uuid: .blob
        }
    }
}
