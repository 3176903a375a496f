/// A data model: the entities an app stores, as Core Data's
/// `NSManagedObjectModel` describes them.
///
/// A model is a value. It is defined in Swift, read from an `.xcdatamodel`
/// `contents` file, or read from the copy Core Data caches in every store
/// it writes (`Z_MODELCACHE`), so a store can be read with no model at hand.
public struct ObjectModel: Sendable, Hashable {
    /// Every entity, sub-entities included, each once.
    public var entities: [EntityDescription]
    /// The model's version identifiers (`NSStoreModelVersionIdentifiers`).
    public var versionIdentifiers: [String]

    public init(entities: [EntityDescription], versionIdentifiers: [String] = []) {
        self.entities = entities
        self.versionIdentifiers = versionIdentifiers
    }

    /// The entity with this name.
    public func entity(named name: String) -> EntityDescription? {
        entities.first { $0.name == name }
    }
}

/// An entity: a kind of object, its attributes and its relationships.
///
/// Only the entity's own properties are listed here; a sub-entity inherits
/// its super-entity's, which ``ObjectModel`` resolves. Core Data keeps an
/// entity and all its sub-entities in one table, named for the root.
public struct EntityDescription: Sendable, Hashable {
    public var name: String
    /// The entity this one inherits from.
    public var superentityName: String?
    public var isAbstract: Bool
    public var attributes: [AttributeDescription]
    public var relationships: [RelationshipDescription]
    /// The entity's name in an earlier model version, for lightweight migration.
    public var renamingIdentifier: String?
    /// Makes an otherwise identical entity hash differently, forcing a migration.
    public var versionHashModifier: String?
    /// Each constraint is a list of attribute names whose values are unique together.
    public var uniquenessConstraints: [[String]]
    /// The class an app represents the entity's objects with (`representedClassName`);
    /// not part of the version hash.
    public var className: String?
    /// Fetched properties: queries, never stored, so not part of the table or the hash.
    public var fetchedProperties: [FetchedPropertyDescription]
    /// The model editor's user info (string values; other values are described).
    public var userInfo: [String: String]
    /// Indexes the store keeps besides those Core Data always makes.
    public var fetchIndexes: [FetchIndexDescription]

    public init(
        name: String,
        superentityName: String? = nil,
        isAbstract: Bool = false,
        attributes: [AttributeDescription] = [],
        relationships: [RelationshipDescription] = [],
        renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil,
        uniquenessConstraints: [[String]] = [],
        className: String? = nil,
        fetchedProperties: [FetchedPropertyDescription] = [],
        userInfo: [String: String] = [:],
        fetchIndexes: [FetchIndexDescription] = []
    ) {
        self.name = name
        self.superentityName = superentityName
        self.isAbstract = isAbstract
        self.attributes = attributes
        self.relationships = relationships
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.uniquenessConstraints = uniquenessConstraints
        self.className = className
        self.fetchedProperties = fetchedProperties
        self.userInfo = userInfo
        self.fetchIndexes = fetchIndexes
    }
}

/// An attribute: a named value of one of Core Data's types.
public struct AttributeDescription: Sendable, Hashable {
    public var name: String
    public var type: AttributeType
    public var isOptional: Bool
    /// Transient attributes are part of the model but never stored.
    public var isTransient: Bool
    public var defaultValue: String?
    /// The value transformer a transformable attribute names
    /// (`NSSecureUnarchiveFromData`, or an app's own class).
    public var valueTransformerName: String?
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    /// Read-only attributes (derived attributes are) cannot be set by the app.
    public var isReadOnly: Bool
    /// Large binary values may be kept in files beside the store (part of the hash).
    public var allowsExternalBinaryDataStorage: Bool
    /// Persistent history keeps the value of a deleted object (part of the hash).
    public var preservesValueInHistoryOnDeletion: Bool
    /// For a derived attribute (`NSDerivedAttributeDescription`), its
    /// expression as text (such as `pages.@count`); `nil` for a stored attribute.
    public var derivationExpression: String?
    /// The class the value is (`NSString`, or a transformable's custom class).
    public var valueClassName: String?

    public init(
        name: String,
        type: AttributeType,
        isOptional: Bool = true,
        isTransient: Bool = false,
        defaultValue: String? = nil,
        valueTransformerName: String? = nil,
        renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil,
        isReadOnly: Bool = false,
        allowsExternalBinaryDataStorage: Bool = false,
        preservesValueInHistoryOnDeletion: Bool = false,
        derivationExpression: String? = nil,
        valueClassName: String? = nil
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.defaultValue = defaultValue
        self.valueTransformerName = valueTransformerName
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.isReadOnly = isReadOnly
        self.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        self.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion
        self.derivationExpression = derivationExpression
        self.valueClassName = valueClassName
    }

    /// A derived attribute: computed by the store from an expression.
    public var isDerived: Bool { derivationExpression != nil }
}

/// A relationship to one object or to many, with its inverse and what
/// deleting the source does to the destination.
public struct RelationshipDescription: Sendable, Hashable {
    public var name: String
    public var destinationEntityName: String
    public var inverseName: String?
    public var isToMany: Bool
    /// An ordered to-many relationship keeps its order in a `Z_FOK_` column.
    public var isOrdered: Bool
    public var isOptional: Bool
    public var isTransient: Bool
    public var deleteRule: DeleteRule
    /// 0 means no bound. A model built in code may say −1 (`NSUIntegerMax`)
    /// for no bound: the same meaning, but a different version hash.
    public var minCount: Int
    public var maxCount: Int
    public var renamingIdentifier: String?
    public var versionHashModifier: String?

    public init(
        name: String,
        destinationEntityName: String,
        inverseName: String? = nil,
        isToMany: Bool = false,
        isOrdered: Bool = false,
        isOptional: Bool = true,
        isTransient: Bool = false,
        deleteRule: DeleteRule = .nullify,
        minCount: Int = 0,
        maxCount: Int? = nil,
        renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil
    ) {
        self.name = name
        self.destinationEntityName = destinationEntityName
        self.inverseName = inverseName
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.deleteRule = deleteRule
        self.minCount = minCount
        // Core Data stores a to-one as at most 1; `nil` means that, or no bound for a to-many.
        self.maxCount = maxCount ?? (isToMany ? 0 : 1)
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
    }
}

/// What deleting an object does to the objects a relationship reaches
/// (`NSDeleteRule`; the raw values are Core Data's).
public enum DeleteRule: Int, Sendable, Hashable {
    /// Leave them, and their inverse pointing at nothing (the app's job).
    case noAction = 0
    /// Clear their inverse.
    case nullify = 1
    /// Delete them too.
    case cascade = 2
    /// Refuse the delete while any remain.
    case deny = 3
}
