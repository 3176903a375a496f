import Foundation
import PredicateFormat

/// An attribute value from its text in a model (`defaultValueString`).
enum AttributeValueText {
    static func parse(_ text: String, as type: AttributeType) -> AttributeValue {
        switch type {
        case .integer16, .integer32, .integer64: Int64(text).map(AttributeValue.integer) ?? .null
        case .boolean: .bool(["YES", "1", "true", "TRUE"].contains(text))
        case .double, .float: Double(text).map(AttributeValue.double) ?? .null
        case .decimal: Decimal(string: text).map(AttributeValue.decimal) ?? .null
        case .string: .string(text)
        case .uri: URL(string: text).map(AttributeValue.uri) ?? .null
        case .uuid: UUID(uuidString: text).map(AttributeValue.uuid) ?? .null
        case .date: Double(text).map { .date(Date(timeIntervalSinceReferenceDate: $0)) } ?? .null
        default: .null
        }
    }
}
