import Foundation
import GRDB

extension AttributeValue {
    /// The SQLite value Core Data stores for this value: booleans as 0/1,
    /// dates as REAL seconds since 2001, UUIDs as 16-byte BLOBs, URIs as
    /// their absolute string, decimals as numbers. A collection has no
    /// column form and becomes NULL.
    public var databaseValue: DatabaseValue {
        switch self {
        case .null, .collection: return .null
        case .bool(let flag): return (flag ? 1 : 0).databaseValue
        case .integer(let integer): return integer.databaseValue
        case .double(let double): return double.databaseValue
        case .decimal(let decimal):
            let number = NSDecimalNumber(decimal: decimal)
            // A whole decimal in Int64 range is stored exactly; others as REAL, as Core Data does.
            if let integer = Int64(exactly: number.doubleValue), Decimal(integer) == decimal {
                return integer.databaseValue
            }
            return number.doubleValue.databaseValue
        case .string(let string): return string.databaseValue
        case .date(let date): return date.timeIntervalSinceReferenceDate.databaseValue
        case .data(let data): return data.databaseValue
        case .uuid(let uuid): return withUnsafeBytes(of: uuid.uuid) { Data($0) }.databaseValue
        case .uri(let url): return url.absoluteString.databaseValue
        }
    }

    /// The value a column of `kind` holds: the inverse of ``databaseValue``.
    /// A stored value of an unexpected storage class is converted as SQLite
    /// would (text to a number's prefix is not attempted: it reads as `nil`).
    public init(databaseValue: DatabaseValue, kind: AttributeValueKind) {
        switch (kind, databaseValue.storage) {
        case (_, .null): self = .null
        case (.integer, .int64(let integer)): self = .integer(integer)
        case (.integer, .double(let double)): self = Int64(exactly: double).map { .integer($0) } ?? .double(double)
        case (.double, .int64(let integer)): self = .double(Double(integer))
        case (.double, .double(let double)): self = .double(double)
        case (.decimal, .int64(let integer)): self = .decimal(Decimal(integer))
        case (.decimal, .double(let double)): self = .decimal(Decimal(double))
        case (.decimal, .string(let text)): self = Decimal(string: text).map { .decimal($0) } ?? .null
        case (.bool, .int64(let integer)): self = .bool(integer != 0)
        case (.bool, .double(let double)): self = .bool(double != 0)
        case (.date, .int64(let integer)): self = .date(Date(timeIntervalSinceReferenceDate: Double(integer)))
        case (.date, .double(let double)): self = .date(Date(timeIntervalSinceReferenceDate: double))
        case (.string, .string(let text)): self = .string(text)
        case (.string, .int64(let integer)): self = .string(String(integer))
        case (.string, .double(let double)): self = .string(String(double))
        case (.string, .blob(let data)): self = .string(String(decoding: data, as: UTF8.self))
        case (.data, .blob(let data)): self = .data(data)
        case (.data, .string(let text)): self = .data(Data(text.utf8))
        case (.uuid, .blob(let data)) where data.count == 16:
            let bytes = Array(data)
            self = .uuid(UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                                     bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])))
        case (.uuid, .string(let text)): self = UUID(uuidString: text).map { .uuid($0) } ?? .null
        case (.uri, .string(let text)): self = URL(string: text).map { .uri($0) } ?? .string(text)
        default: self = .null
        }
    }
}
