/// Matches entities and properties as Core Data infers a mapping model.
struct MigrationPlanner {
    let source: ObjectModel
    let destination: ObjectModel
    let sourceHashes: ModelVersionHashes
    let destinationHashes: ModelVersionHashes
    var checks: [MigrationCheck] = []
    /// Destination entity name → source entity name.
    var entityMatches: [String: String] = [:]

    init(source: ObjectModel, destination: ObjectModel, sourceHashes: ModelVersionHashes, destinationHashes: ModelVersionHashes) {
        self.source = source
        self.destination = destination
        self.sourceHashes = sourceHashes
        self.destinationHashes = destinationHashes
    }

    mutating func entityMappings() throws(ModelMigrationError) -> [EntityMapping] {
        var claimed: [String: String] = [:]
        for entity in destination.entities {
            guard let match = matchingSourceName(of: entity.name, renamingIdentifier: entity.renamingIdentifier,
                                                 in: Set(source.entities.map(\.name))) else { continue }
            if let other = claimed[match] {
                throw ModelMigrationError(.ambiguousRenaming, entity: entity.name, "\(other) and \(entity.name) both map from \(match)")
            }
            claimed[match] = entity.name
            entityMatches[entity.name] = match
        }
        var mappings: [EntityMapping] = []
        for entity in destination.entities {
            mappings.append(try mapping(for: entity))
        }
        return mappings
    }

    /// The source name a destination element comes from: its renaming
    /// identifier when the source has that name, else its own name.
    private func matchingSourceName(of name: String, renamingIdentifier: String?, in names: Set<String>) -> String? {
        if let renamingIdentifier, names.contains(renamingIdentifier) { return renamingIdentifier }
        return names.contains(name) ? name : nil
    }

    private mutating func mapping(for entity: EntityDescription) throws(ModelMigrationError) -> EntityMapping {
        guard let sourceName = entityMatches[entity.name], let sourceEntity = source.entity(named: sourceName) else {
            // A new entity: its required properties only constrain rows inserted later.
            return EntityMapping(
                destinationEntity: entity.name, kind: .add,
                attributes: entity.attributes.filter { !$0.isTransient }.map {
                    AttributeMapping(name: $0.name, type: $0.type, source: $0.isDerived ? .derivation : .defaultValue,
                                     defaultValue: $0.defaultValue, fillsNullsWithDefault: false)
                },
                relationships: entity.relationships.filter { !$0.isTransient }.map {
                    RelationshipMapping(name: $0.name, sourceName: nil, destinationEntity: $0.destinationEntityName,
                                        cardinalityChanged: false, orderingChanged: false)
                },
                removedAttributes: [], removedRelationships: [], isUnchanged: false)
        }
        try checkInheritance(of: entity, from: sourceEntity)
        let sourceAttributes = source.resolvedAttributes(of: sourceEntity).map(\.attribute).filter { !$0.isTransient }
        let sourceRelationships = source.resolvedRelationships(of: sourceEntity).map(\.relationship).filter { !$0.isTransient }
        let sourcePropertyNames = Set(sourceAttributes.map(\.name) + sourceRelationships.map(\.name))
        var usedAttributes: Set<String> = []
        var usedRelationships: Set<String> = []

        var attributes: [AttributeMapping] = []
        for attribute in entity.attributes where !attribute.isTransient {
            if attribute.isDerived {
                attributes.append(AttributeMapping(name: attribute.name, type: attribute.type, source: .derivation,
                                                   defaultValue: nil, fillsNullsWithDefault: false))
                continue
            }
            let match = matchingSourceName(of: attribute.name, renamingIdentifier: attribute.renamingIdentifier, in: sourcePropertyNames)
            guard let match, let old = sourceAttributes.first(where: { $0.name == match }) else {
                if match != nil {
                    throw ModelMigrationError(.propertyKindChanged, entity: entity.name, property: attribute.name,
                                         "was the relationship \(match ?? ""), is now an attribute")
                }
                if !attribute.isOptional && attribute.defaultValue == nil {
                    checks.append(.noNullValues(entity: entity.name, attribute: attribute.name))
                }
                attributes.append(AttributeMapping(name: attribute.name, type: attribute.type, source: .defaultValue,
                                                   defaultValue: attribute.defaultValue, fillsNullsWithDefault: false))
                continue
            }
            guard usedAttributes.insert(match).inserted else {
                throw ModelMigrationError(.ambiguousRenaming, entity: entity.name, property: attribute.name, "two attributes map from \(match)")
            }
            guard old.type == attribute.type else {
                throw ModelMigrationError(.attributeTypeChanged, entity: entity.name, property: attribute.name,
                                     "type changes from \(old.type.modelFileName) to \(attribute.type.modelFileName); a lightweight migration keeps types")
            }
            let becomesRequired = old.isOptional && !attribute.isOptional
            if becomesRequired && attribute.defaultValue == nil {
                checks.append(.noNullValues(entity: entity.name, attribute: attribute.name))
            }
            attributes.append(AttributeMapping(name: attribute.name, type: attribute.type, source: .attribute(match),
                                               defaultValue: attribute.defaultValue,
                                               fillsNullsWithDefault: becomesRequired && attribute.defaultValue != nil))
        }

        var relationships: [RelationshipMapping] = []
        for relationship in entity.relationships where !relationship.isTransient {
            let match = matchingSourceName(of: relationship.name, renamingIdentifier: relationship.renamingIdentifier, in: sourcePropertyNames)
            guard let match, let old = sourceRelationships.first(where: { $0.name == match }) else {
                if match != nil {
                    throw ModelMigrationError(.propertyKindChanged, entity: entity.name, property: relationship.name,
                                         "was the attribute \(match ?? ""), is now a relationship")
                }
                if !relationship.isOptional {
                    checks.append(.noEmptyRelationship(entity: entity.name, relationship: relationship.name))
                }
                relationships.append(RelationshipMapping(name: relationship.name, sourceName: nil, destinationEntity: relationship.destinationEntityName,
                                                         cardinalityChanged: false, orderingChanged: false))
                continue
            }
            guard usedRelationships.insert(match).inserted else {
                throw ModelMigrationError(.ambiguousRenaming, entity: entity.name, property: relationship.name, "two relationships map from \(match)")
            }
            // The destination must be the entity the old destination became
            // (or one related to it by inheritance in the new model).
            let mappedDestination = entityMatches.first { $0.value == old.destinationEntityName }?.key
            let related = mappedDestination.map { mapped in
                mapped == relationship.destinationEntityName || isAncestor(relationship.destinationEntityName, of: mapped)
                    || isAncestor(mapped, of: relationship.destinationEntityName)
            } ?? false
            guard related else {
                throw ModelMigrationError(.relationshipDestinationChanged, entity: entity.name, property: relationship.name,
                                     "pointed at \(old.destinationEntityName), now at \(relationship.destinationEntityName)")
            }
            if old.isOptional && !relationship.isOptional {
                checks.append(.noEmptyRelationship(entity: entity.name, relationship: relationship.name))
            }
            relationships.append(RelationshipMapping(name: relationship.name, sourceName: match, destinationEntity: relationship.destinationEntityName,
                                                     cardinalityChanged: old.isToMany != relationship.isToMany,
                                                     orderingChanged: old.isOrdered != relationship.isOrdered))
        }

        let kind: EntityMapping.Kind = sourceName == entity.name ? .copy : .rename(from: sourceName)
        return EntityMapping(
            destinationEntity: entity.name, kind: kind, attributes: attributes, relationships: relationships,
            removedAttributes: sourceEntity.attributes.filter { !$0.isTransient && !usedAttributes.contains($0.name) && !$0.isDerived }.map(\.name)
                .filter { name in !isInheritedInDestination(name, entity: entity) },
            removedRelationships: sourceEntity.relationships.filter { !$0.isTransient && !usedRelationships.contains($0.name) }.map(\.name)
                .filter { name in !isInheritedInDestination(name, entity: entity) },
            isUnchanged: sourceHashes.entities[sourceName] != nil && sourceHashes.entities[sourceName] == destinationHashes.entities[entity.name])
    }

    /// A property the destination entity inherits is mapped with its super-entity, not removed.
    private func isInheritedInDestination(_ name: String, entity: EntityDescription) -> Bool {
        destination.ancestors(of: entity).contains { ancestor in
            ancestor.attributes.contains { $0.name == name || $0.renamingIdentifier == name }
                || ancestor.relationships.contains { $0.name == name || $0.renamingIdentifier == name }
        }
    }

    private func isAncestor(_ candidate: String, of name: String) -> Bool {
        guard let entity = destination.entity(named: name) else { return false }
        return destination.ancestors(of: entity).contains { $0.name == candidate }
    }

    /// A kept entity stays in the same inheritance tree: its super-entity
    /// must be the one its old super-entity became.
    private func checkInheritance(of entity: EntityDescription, from old: EntityDescription) throws(ModelMigrationError) {
        let oldParent = old.superentityName
        let newParentSource = entity.superentityName.flatMap { entityMatches[$0] }
        guard oldParent == newParentSource else {
            throw ModelMigrationError(.inheritanceChanged, entity: entity.name,
                                 "inherited from \(oldParent ?? "nothing"), now from \(entity.superentityName ?? "nothing")")
        }
    }
}
