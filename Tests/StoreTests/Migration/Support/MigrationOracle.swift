import Foundation
import PredicateFormat
import Store

/// The objects a migration should produce, worked out in memory from the
/// objects read before it and the plan: an independent oracle for the SQL.
enum MigrationOracle {
    static func migrate(_ objects: Set<ManagedObject>, plan: MigrationPlan, destination: ObjectModel) -> Set<ManagedObject> {
        var entityNames: [String: String] = [:]
        for mapping in plan.entityMappings {
            if let source = mapping.sourceEntity { entityNames[source] = mapping.destinationEntity }
        }
        var result: Set<ManagedObject> = []
        for object in objects {
            guard let name = entityNames[object.objectID.entityName] else { continue }
            var migrated = ManagedObject(objectID: ObjectID(entityName: name, primaryKey: object.objectID.primaryKey), version: object.version)
            for owner in destination.lineage(ofEntityNamed: name) {
                guard let mapping = plan.mapping(forEntity: owner.name) else { continue }
                for attribute in mapping.attributes {
                    switch attribute.source {
                    case .attribute(let from):
                        var value = object.values[from] ?? .null
                        if value == .null, attribute.fillsNullsWithDefault { value = defaultValue(attribute) }
                        migrated.values[attribute.name] = value
                    case .defaultValue:
                        migrated.values[attribute.name] = defaultValue(attribute)
                    case .derivation:
                        migrated.values[attribute.name] = object.values[attribute.name] ?? .null
                    }
                }
                for relationship in mapping.relationships {
                    guard let from = relationship.sourceName, let target = object.toOne[from],
                          let description = destination.relationship(relationship.name, ofEntityNamed: name), !description.isToMany else { continue }
                    migrated.toOne[relationship.name] = ObjectID(entityName: entityNames[target.entityName] ?? target.entityName,
                                                                 primaryKey: target.primaryKey)
                }
            }
            result.insert(migrated)
        }
        return result
    }

    static func defaultValue(_ attribute: AttributeMapping) -> AttributeValue {
        guard let text = attribute.defaultValue else { return .null }
        switch attribute.type {
        case .boolean: return .bool(text == "YES" || text == "1" || text.lowercased() == "true")
        case .integer16, .integer32, .integer64: return Int64(text).map(AttributeValue.integer) ?? .null
        case .double, .float: return Double(text).map(AttributeValue.double) ?? .null
        default: return .string(text)
        }
    }
}
