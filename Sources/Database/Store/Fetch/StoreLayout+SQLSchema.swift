import PredicateFormat

extension AttributeType {
    /// How the predicate compiler compares and binds values of this type.
    public var valueKind: AttributeValueKind {
        switch self {
        case .integer16, .integer32, .integer64, .objectID: .integer
        case .decimal: .decimal
        case .double, .float: .double
        case .string: .string
        case .boolean: .bool
        case .date: .date
        case .uuid: .uuid
        case .uri: .uri
        case .binaryData, .transformable, .undefined, .composite: .data
        }
    }
}

extension StoreLayout {
    /// The layout as the predicate compiler sees it: each entity's table,
    /// `Z_ENT` numbers, attribute columns and relationship joins.
    public var sqlSchema: SQLSchema {
        SQLSchema(entities.map { entity in
            var attributes: [String: SQLAttributeMapping] = [:]
            for (name, attribute) in entity.attributes {
                attributes[name] = SQLAttributeMapping(column: attribute.column, kind: attribute.type.valueKind)
            }
            var relationships: [String: SQLRelationshipMapping] = [:]
            for (name, storage) in entity.relationships {
                guard let destination = model.relationship(name, ofEntityNamed: entity.name)?.destinationEntityName else { continue }
                let kind: SQLRelationshipMapping.Kind = switch storage {
                case .foreignKey(let column, _, _): .toOne(foreignKeyColumn: column)
                case .inverseForeignKey(_, let column, _): .toManyInverse(destinationForeignKeyColumn: column)
                case .joinTable(let table, let source, let destinationColumn, _):
                    .manyToMany(joinTable: table, sourceColumn: source, destinationColumn: destinationColumn)
                }
                relationships[name] = SQLRelationshipMapping(destination: destination, kind: kind)
            }
            return SQLEntityMapping(name: entity.name, table: entity.tableName,
                                    entityIDs: entity.hasSubentities || !entity.isRoot || sharesTable(entity) ? entity.entityNumbers : nil,
                                    attributes: attributes, relationships: relationships)
        })
    }

    /// Whether another entity's rows live in this entity's table.
    private func sharesTable(_ entity: EntityLayout) -> Bool {
        entities.contains { $0.tableName == entity.tableName && $0.name != entity.name }
    }
}
