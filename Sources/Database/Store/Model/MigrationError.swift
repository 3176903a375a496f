/// A change between two models that a lightweight migration cannot make.
public struct MigrationError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// An attribute kept (or renamed) changes its type.
        case attributeTypeChanged
        /// An entity kept (or renamed) moves to another inheritance tree.
        case inheritanceChanged
        /// A relationship kept points at an entity that is not the mapped destination.
        case relationshipDestinationChanged
        /// Two destination entities or properties claim the same source.
        case ambiguousRenaming
        /// An attribute became a relationship or the reverse.
        case propertyKindChanged
    }

    public var code: Code
    public var entity: String
    public var property: String?
    public var message: String

    public init(_ code: Code, entity: String, property: String? = nil, _ message: String) {
        self.code = code
        self.entity = entity
        self.property = property
        self.message = message
    }

    public var description: String {
        "\(entity)\(property.map { ".\($0)" } ?? ""): \(message)"
    }
}
