import Foundation
import GRDB
import PredicateFormat

/// The column value of an attribute's default, as the model spells it
/// (`defaultValueString`, or `defaultDateTimeInterval` for a date): what a
/// migration writes into every existing row of an added attribute.
enum DefaultValueColumn {
    /// `nil` when the attribute has no default; a typed error when the
    /// text cannot be a value of the attribute's type.
    static func value(of mapping: AttributeMapping, entity: String) throws(StoreMigrationError) -> DatabaseValue? {
        guard let text = mapping.defaultValue else { return nil }
        func invalid() -> StoreMigrationError {
            StoreMigrationError(.invalidDefaultValue, "default \"\(text)\" is not a \(mapping.type.modelFileName) value",
                                entity: entity, property: mapping.name)
        }
        let value: AttributeValue
        switch mapping.type {
        case .integer16, .integer32, .integer64:
            guard let integer = Int64(text) ?? Double(text).flatMap({ Int64(exactly: $0) }) else { throw invalid() }
            value = .integer(integer)
        case .boolean:
            switch text.lowercased() {
            case "yes", "true", "1": value = .bool(true)
            case "no", "false", "0": value = .bool(false)
            default: throw invalid()
            }
        case .double, .float, .decimal:
            guard let number = Double(text) else { throw invalid() }
            value = .double(number)
        case .date:
            guard let seconds = Double(text) else { throw invalid() }
            value = .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .string:
            value = .string(text)
        case .uuid:
            guard let uuid = UUID(uuidString: text) else { throw invalid() }
            value = .uuid(uuid)
        case .uri:
            value = .string(text)
        case .binaryData, .transformable, .undefined, .objectID, .composite:
            // The model editor offers no default for these.
            return nil
        }
        do {
            return try ColumnValueCoding.databaseValue(value, type: mapping.type, key: mapping.name, entity: entity)
        } catch {
            throw invalid()
        }
    }
}
