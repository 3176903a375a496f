extension ObjectModel {
    /// The entity's super-entities, the root first (empty for a root entity).
    /// A cycle or a missing parent ends the chain.
    public func ancestors(of entity: EntityDescription) -> [EntityDescription] {
        var chain: [EntityDescription] = []
        var seen: Set<String> = [entity.name]
        var current = entity.superentityName
        while let name = current, seen.insert(name).inserted, let parent = self.entity(named: name) {
            chain.append(parent)
            current = parent.superentityName
        }
        return chain.reversed()
    }

    /// The root of the entity's inheritance tree: the entity whose table
    /// holds it (itself when it has no super-entity).
    public func rootEntity(of entity: EntityDescription) -> EntityDescription {
        ancestors(of: entity).first ?? entity
    }

    /// The entities that inherit directly from `entity`, in model order.
    public func subentities(of entity: EntityDescription) -> [EntityDescription] {
        entities.filter { $0.superentityName == entity.name }
    }

    /// Every entity below `entity` in its inheritance tree, depth first, in model order.
    public func descendants(of entity: EntityDescription) -> [EntityDescription] {
        var result: [EntityDescription] = []
        var seen: Set<String> = [entity.name]
        var pending = subentities(of: entity).reversed() as [EntityDescription]
        while let next = pending.popLast() {
            guard seen.insert(next.name).inserted else { continue }
            result.append(next)
            pending.append(contentsOf: subentities(of: next).reversed())
        }
        return result
    }

    /// The entity's attributes with its inherited ones, super-entities'
    /// first, each with the name of the entity that declares it.
    public func resolvedAttributes(of entity: EntityDescription) -> [(entityName: String, attribute: AttributeDescription)] {
        (ancestors(of: entity) + [entity]).flatMap { owner in owner.attributes.map { (owner.name, $0) } }
    }

    /// The entity's relationships with its inherited ones, super-entities'
    /// first, each with the name of the entity that declares it.
    public func resolvedRelationships(of entity: EntityDescription) -> [(entityName: String, relationship: RelationshipDescription)] {
        (ancestors(of: entity) + [entity]).flatMap { owner in owner.relationships.map { (owner.name, $0) } }
    }

    /// The relationship's inverse, looked up on its destination and the
    /// destination's super-entities.
    public func inverse(of relationship: RelationshipDescription) -> RelationshipDescription? {
        guard let inverseName = relationship.inverseName, let destination = entity(named: relationship.destinationEntityName) else {
            return nil
        }
        return resolvedRelationships(of: destination).first { $0.relationship.name == inverseName }?.relationship
    }
}
