/// How one destination entity gets its rows.
public struct EntityMapping: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// A new entity: it starts empty.
        case add
        /// The entity of the same name is carried over.
        case copy
        /// The entity was renamed: its renaming identifier names this source entity.
        case rename(from: String)
    }

    public var destinationEntity: String
    public var kind: Kind
    /// The destination entity's own stored attributes (inherited ones are
    /// mapped with the entity that declares them), in model order.
    public var attributes: [AttributeMapping]
    /// The destination entity's own stored relationships, in model order.
    public var relationships: [RelationshipMapping]
    /// The source entity's own stored attributes that nothing maps: their values are dropped.
    public var removedAttributes: [String]
    /// The source entity's own stored relationships that nothing maps.
    public var removedRelationships: [String]
    /// The source and destination entities hash the same: nothing to rewrite.
    public var isUnchanged: Bool

    public init(destinationEntity: String, kind: Kind, attributes: [AttributeMapping], relationships: [RelationshipMapping],
                removedAttributes: [String], removedRelationships: [String], isUnchanged: Bool) {
        self.destinationEntity = destinationEntity
        self.kind = kind
        self.attributes = attributes
        self.relationships = relationships
        self.removedAttributes = removedAttributes
        self.removedRelationships = removedRelationships
        self.isUnchanged = isUnchanged
    }

    /// The source entity, or `nil` for an added one.
    public var sourceEntity: String? {
        switch kind {
        case .add: nil
        case .copy: destinationEntity
        case .rename(let from): from
        }
    }
}

/// Where one destination attribute's values come from.
public struct AttributeMapping: Sendable, Hashable {
    public enum Source: Sendable, Hashable {
        /// The source attribute of this name (the same name, or the renaming identifier).
        case attribute(String)
        /// A new attribute: every row gets ``AttributeMapping/defaultValue`` (or null).
        case defaultValue
        /// A derived attribute: the store computes it again.
        case derivation
    }

    public var name: String
    public var type: AttributeType
    public var source: Source
    /// The destination's default, as the model spells it.
    public var defaultValue: String?
    /// Optional before, required now, with a default: nulls become the default.
    public var fillsNullsWithDefault: Bool

    public init(name: String, type: AttributeType, source: Source, defaultValue: String?, fillsNullsWithDefault: Bool) {
        self.name = name
        self.type = type
        self.source = source
        self.defaultValue = defaultValue
        self.fillsNullsWithDefault = fillsNullsWithDefault
    }

    /// The attribute takes its values from a source attribute of another name.
    public var isRenamed: Bool {
        if case .attribute(let from) = source { return from != name }
        return false
    }
}

/// Where one destination relationship's links come from.
public struct RelationshipMapping: Sendable, Hashable {
    public var name: String
    /// The source relationship carried over, or `nil` for a new, empty one.
    public var sourceName: String?
    public var destinationEntity: String
    /// To-one became to-many or the reverse (the links are kept).
    public var cardinalityChanged: Bool
    /// Became ordered (links get their stored order) or unordered.
    public var orderingChanged: Bool

    public init(name: String, sourceName: String?, destinationEntity: String, cardinalityChanged: Bool, orderingChanged: Bool) {
        self.name = name
        self.sourceName = sourceName
        self.destinationEntity = destinationEntity
        self.cardinalityChanged = cardinalityChanged
        self.orderingChanged = orderingChanged
    }

    public var isRenamed: Bool { sourceName.map { $0 != name } ?? false }
}

/// A condition on the store's data that a migration needs.
public enum MigrationCheck: Sendable, Hashable {
    /// A required attribute without a default was added, or an optional one became required:
    /// no row may lack a value.
    case noNullValues(entity: String, attribute: String)
    /// A required relationship was added, or became required: every object needs a destination.
    case noEmptyRelationship(entity: String, relationship: String)
}
