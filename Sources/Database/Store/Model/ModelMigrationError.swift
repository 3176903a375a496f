import CodedErrors

/// A change between two models that a lightweight migration cannot make:
/// what (``ModelMigrationErrorCode``), the entity and property concerned,
/// and a message for people. (Not `MigrationError`: Container's migrations
/// have that name, and a client importing both modules saw two.)
public typealias ModelMigrationError = CodedError<ModelMigrationErrorCode>

/// The kinds of change of a ``ModelMigrationError``.
public enum ModelMigrationErrorCode: String, ErrorCode {
    public typealias Context = ModelMigrationErrorContext

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

    /// `<entity>[.<property>]: <message>`.
    public static func describe(_ error: ModelMigrationError) -> String {
        "\(error.entity)\(error.property.map { ".\($0)" } ?? ""): \(error.message)"
    }
}

/// What a ``ModelMigrationError`` concerns.
public struct ModelMigrationErrorContext: Hashable, Sendable {
    public var entity: String
    public var property: String?
}

extension ModelMigrationError {
    /// Creates an error.
    public init(_ code: Code, entity: String, property: String? = nil, _ message: String) {
        self.init(code, message, context: ModelMigrationErrorContext(entity: entity, property: property))
    }
}
