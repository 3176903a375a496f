/// A store's entities as a reader sees them: names, tables, properties and
/// row counts, from the store alone (`sandbox store schema`).
public struct StoreSchema: Sendable, Hashable, Codable {
    public struct Entity: Sendable, Hashable, Codable {
        public var name: String
        public var superentity: String?
        public var isAbstract: Bool
        /// `Z_ENT`.
        public var entityNumber: Int
        public var table: String
        /// Rows of this entity and its sub-entities.
        public var rows: Int
        public var attributes: [Attribute]
        public var relationships: [Relationship]
    }

    public struct Attribute: Sendable, Hashable, Codable {
        public var name: String
        /// The model editor's name of the type (`Integer 16`, `String`, `Transformable`…).
        public var type: String
        public var column: String?
        public var isOptional: Bool
        public var isTransient: Bool
    }

    public struct Relationship: Sendable, Hashable, Codable {
        public var name: String
        public var destination: String
        public var inverse: String?
        public var isToMany: Bool
        public var isOrdered: Bool
        /// `nullify`, `cascade`, `deny` or `noAction`.
        public var deleteRule: String
    }

    public var path: String
    /// Where the model came from: `modelCache` or `given`.
    public var modelOrigin: String
    public var versionIdentifiers: [String]
    public var frameworkVersion: Int?
    /// Whether the metadata's version hashes are the model's.
    public var metadataMatchesModel: Bool?
    public var entities: [Entity]
}

extension PersistentStore {
    /// The store's schema and row counts, as ``StoreSchema``.
    public func schema(metadata: StoreMetadata?, modelOrigin: ModelOrigin) throws(StoreError) -> StoreSchema {
        let model = layout.model
        var entities: [StoreSchema.Entity] = []
        for entityLayout in layout.entities {
            guard let entity = model.entity(named: entityLayout.name) else { continue }
            let attributes = model.allAttributes(ofEntityNamed: entity.name).map { attribute in
                StoreSchema.Attribute(name: attribute.name, type: attribute.type.modelFileName,
                                      column: entityLayout.attributes[attribute.name]?.column,
                                      isOptional: attribute.isOptional, isTransient: attribute.isTransient)
            }
            let relationships = model.allRelationships(ofEntityNamed: entity.name).map { relationship in
                StoreSchema.Relationship(name: relationship.name, destination: relationship.destinationEntityName,
                                         inverse: relationship.inverseName, isToMany: relationship.isToMany,
                                         isOrdered: relationship.isOrdered, deleteRule: "\(relationship.deleteRule)")
            }
            entities.append(StoreSchema.Entity(name: entity.name, superentity: entity.superentityName, isAbstract: entity.isAbstract,
                                               entityNumber: entityLayout.number, table: entityLayout.tableName,
                                               rows: try count(of: entity.name), attributes: attributes,
                                               relationships: relationships))
        }
        return StoreSchema(path: path, modelOrigin: modelOrigin.rawValue,
                           versionIdentifiers: metadata?.versionIdentifiers ?? model.versionIdentifiers,
                           frameworkVersion: metadata?.frameworkVersion,
                           metadataMatchesModel: metadata.map { $0.isCompatible(with: model) },
                           entities: entities)
    }
}
