import Foundation
import GRDB
import PredicateFormat

/// Attribute values to and from the columns Core Data writes: dates as
/// seconds since 2001, booleans as 0 and 1, UUIDs as 16-byte blobs, URIs
/// as strings, decimals as numbers, transformables as their archived bytes.
enum ColumnValueCoding {
    static func attributeValue(_ value: DatabaseValue, type: AttributeType) -> AttributeValue {
        switch value.storage {
        case .null:
            return .null
        case .int64(let integer):
            switch type {
            case .boolean: return .bool(integer != 0)
            case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(integer)))
            case .double, .float: return .double(Double(integer))
            case .decimal: return .decimal(Decimal(integer))
            default: return .integer(integer)
            }
        case .double(let double):
            switch type {
            case .date: return .date(Date(timeIntervalSinceReferenceDate: double))
            case .decimal: return .decimal(Decimal(string: "\(double)") ?? Decimal(double))
            case .integer16, .integer32, .integer64:
                return double.rounded() == double && abs(double) < 9.2e18 ? .integer(Int64(double)) : .double(double)
            case .boolean: return .bool(double != 0)
            default: return .double(double)
            }
        case .string(let string):
            switch type {
            case .uri: return URL(string: string).map(AttributeValue.uri) ?? .string(string)
            case .decimal: return Decimal(string: string).map(AttributeValue.decimal) ?? .string(string)
            case .uuid: return UUID(uuidString: string).map(AttributeValue.uuid) ?? .string(string)
            default: return .string(string)
            }
        case .blob(let data):
            if type == .uuid, data.count == 16 {
                let bytes = [UInt8](data)
                return .uuid(UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                                         bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])))
            }
            return .data(data)
        }
    }

    /// The column value for an attribute of `type`, or a typed error when
    /// the value does not fit the type.
    static func databaseValue(_ value: AttributeValue, type: AttributeType, key: String,
                              entity: String) throws(StoreError) -> DatabaseValue {
        func mismatch() -> StoreError {
            StoreError(.invalidValue, "\(value) does not fit attribute \(key) of type \(type.modelFileName)", entity: entity)
        }
        switch (value, type) {
        case (.null, _): return .null
        case (.integer(let integer), .integer16), (.integer(let integer), .integer32), (.integer(let integer), .integer64):
            return integer.databaseValue
        case (.bool(let bool), .boolean): return (bool ? 1 : 0).databaseValue
        case (.integer(let integer), .boolean): return (integer != 0 ? 1 : 0).databaseValue
        case (.double(let double), .double), (.double(let double), .float): return double.databaseValue
        case (.integer(let integer), .double), (.integer(let integer), .float): return Double(integer).databaseValue
        case (.decimal(let decimal), .decimal):
            let number = NSDecimalNumber(decimal: decimal)
            return number.doubleValue.rounded() == number.doubleValue && abs(number.doubleValue) < 9e15
                ? Int64(number.doubleValue).databaseValue : number.doubleValue.databaseValue
        case (.integer(let integer), .decimal): return integer.databaseValue
        case (.double(let double), .decimal): return double.databaseValue
        case (.string(let string), .string): return string.databaseValue
        case (.date(let date), .date): return date.timeIntervalSinceReferenceDate.databaseValue
        case (.data(let data), .binaryData), (.data(let data), .transformable), (.data(let data), .undefined):
            return data.databaseValue
        case (.uuid(let uuid), .uuid):
            return withUnsafeBytes(of: uuid.uuid) { Data($0) }.databaseValue
        case (.uri(let url), .uri): return url.absoluteString.databaseValue
        case (.string(let string), .uri): return string.databaseValue
        default: throw mismatch()
        }
    }
}
