/// The inheritance questions a layout asks of a model: roots, sub-entities
/// and the properties an entity has once its super-entities' are added.
extension ObjectModel {
    /// The entities with no super-entity, sorted by name.
    public var sortedRootEntities: [EntityDescription] {
        entities.filter { $0.superentityName == nil }.sorted { $0.name < $1.name }
    }

    /// The direct sub-entities of `name`, sorted by name.
    public func sortedSubentities(ofEntityNamed name: String) -> [EntityDescription] {
        entities.filter { $0.superentityName == name }.sorted { $0.name < $1.name }
    }

    /// The entity and its super-entities, the root first.
    public func lineage(ofEntityNamed name: String) -> [EntityDescription] {
        var chain: [EntityDescription] = []
        var next: String? = name
        while let current = next, let entity = entity(named: current), !chain.contains(where: { $0.name == current }) {
            chain.insert(entity, at: 0)
            next = entity.superentityName
        }
        return chain
    }

    /// The entity's root: the entity whose table holds it.
    public func rootEntity(ofEntityNamed name: String) -> EntityDescription? { lineage(ofEntityNamed: name).first }

    /// The attributes the entity has, inherited ones first.
    public func allAttributes(ofEntityNamed name: String) -> [AttributeDescription] {
        lineage(ofEntityNamed: name).flatMap(\.attributes)
    }

    /// The relationships the entity has, inherited ones first.
    public func allRelationships(ofEntityNamed name: String) -> [RelationshipDescription] {
        lineage(ofEntityNamed: name).flatMap(\.relationships)
    }

    /// The relationship named `name` of the entity, inherited or its own.
    public func relationship(_ name: String, ofEntityNamed entity: String) -> RelationshipDescription? {
        allRelationships(ofEntityNamed: entity).first { $0.name == name }
    }

    /// The attribute named `name` of the entity, inherited or its own.
    public func attribute(_ name: String, ofEntityNamed entity: String) -> AttributeDescription? {
        allAttributes(ofEntityNamed: entity).first { $0.name == name }
    }

    /// The inverse of a relationship of `entity`, looked up in its destination.
    public func inverseRelationship(of relationship: RelationshipDescription) -> RelationshipDescription? {
        guard let inverseName = relationship.inverseName else { return nil }
        return self.relationship(inverseName, ofEntityNamed: relationship.destinationEntityName)
    }
}
