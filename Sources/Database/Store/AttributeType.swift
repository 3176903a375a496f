/// The type of an attribute, as Core Data's model editor names it.
///
/// The raw values are `NSAttributeType`'s, which is what a compiled model
/// and the model cached in a store (`Z_MODELCACHE`) record.
public enum AttributeType: Int, Sendable, Hashable, CaseIterable {
    case undefined = 0
    case integer16 = 100
    case integer32 = 200
    case integer64 = 300
    case decimal = 400
    case double = 500
    case float = 600
    case string = 700
    case boolean = 800
    case date = 900
    case binaryData = 1000
    case uuid = 1100
    case uri = 1200
    /// Archived through a value transformer (by default a keyed archive).
    case transformable = 1800
    case objectID = 2000
    case composite = 2100

    /// The name an `.xcdatamodel` `contents` file gives the type
    /// (`attributeType="Integer 16"`).
    public var modelFileName: String {
        switch self {
        case .undefined: "Undefined"
        case .integer16: "Integer 16"
        case .integer32: "Integer 32"
        case .integer64: "Integer 64"
        case .decimal: "Decimal"
        case .double: "Double"
        case .float: "Float"
        case .string: "String"
        case .boolean: "Boolean"
        case .date: "Date"
        case .binaryData: "Binary"
        case .uuid: "UUID"
        case .uri: "URI"
        case .transformable: "Transformable"
        case .objectID: "ObjectID"
        case .composite: "Composite"
        }
    }

    /// The type an `.xcdatamodel` `contents` file names, or `nil` for a name
    /// Core Data does not know.
    public init?(modelFileName: String) {
        guard let type = Self.allCases.first(where: { $0.modelFileName == modelFileName }) else { return nil }
        self = type
    }

    /// The column type Core Data declares for the attribute in its table.
    public var sqlColumnType: String {
        switch self {
        case .integer16, .integer32, .integer64, .boolean, .objectID: "INTEGER"
        case .decimal: "DECIMAL"
        case .double, .float: "FLOAT"
        case .string, .uri: "VARCHAR"
        case .date: "TIMESTAMP"
        case .binaryData, .uuid, .transformable, .undefined, .composite: "BLOB"
        }
    }
}
