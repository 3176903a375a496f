import Foundation
import PredicateFormat
import Store

/// An object as `sandbox store query` prints it.
struct StoreObjectJSON: Encodable {
    /// `Entity/p<primary key>`.
    var id: String
    var entity: String
    var version: Int64
    var values: [String: StoreValueJSON]
    /// To-one relationships: the destination's ID.
    var relationships: [String: String]

    init(_ object: ManagedObject, in store: PersistentStore) {
        id = object.objectID.description
        entity = object.objectID.entityName
        version = object.version
        values = object.values.mapValues(StoreValueJSON.init)
        relationships = object.toOne.mapValues(\.description)
    }
}

/// An attribute value in JSON: numbers, strings and booleans as they are,
/// dates in ISO 8601, data in base64, UUIDs and URIs as strings.
struct StoreValueJSON: Encodable {
    var value: AttributeValue

    init(_ value: AttributeValue) { self.value = value }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch value {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .integer(let number): try container.encode(number)
        case .double(let number): try container.encode(number)
        case .decimal(let number): try container.encode("\(number)")
        case .string(let text): try container.encode(text)
        case .date(let date): try container.encode(date)
        case .data(let data): try container.encode(data)
        case .uuid(let uuid): try container.encode(uuid.uuidString)
        case .uri(let url): try container.encode(url.absoluteString)
        case .collection(let values): try container.encode(values.map(StoreValueJSON.init))
        }
    }

    /// The value for people: strings quoted, data by size.
    var text: String {
        switch value {
        case .null: "nil"
        case .bool(let flag): flag ? "YES" : "NO"
        case .integer(let number): String(number)
        case .double(let number): String(number)
        case .decimal(let number): "\(number)"
        case .string(let text): "\"\(text)\""
        case .date(let date): date.formatted(.iso8601)
        case .data(let data): "<\(data.count) bytes>"
        case .uuid(let uuid): uuid.uuidString
        case .uri(let url): url.absoluteString
        case .collection(let values): "(" + values.map { StoreValueJSON($0).text }.joined(separator: ", ") + ")"
        }
    }
}
