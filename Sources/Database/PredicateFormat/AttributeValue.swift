import Foundation

/// A value an object holds for an attribute, and the value a predicate
/// expression evaluates to: the types of Core Data's attributes, plus the
/// collections that key paths through to-many relationships produce.
///
/// It lives below `Store` so that predicates can be evaluated in memory
/// against the very values a store reads, with no conversion between two
/// value types.
public enum AttributeValue: Sendable, Hashable {
    /// `nil`, `NULL` and an unset optional attribute.
    case null
    case bool(Bool)
    /// Integers of 16, 32 and 64 bits, widened: the store keeps all three as SQLite integers.
    case integer(Int64)
    /// Doubles and floats.
    case double(Double)
    case decimal(Decimal)
    case string(String)
    /// A date; Core Data stores it as seconds since 2001-01-01 00:00:00 UTC.
    case date(Date)
    case data(Data)
    case uuid(UUID)
    case uri(URL)
    /// The members of a to-many relationship, or the values of a key path
    /// through one, or the elements of an `IN` or aggregate literal.
    case collection([AttributeValue])
}
