/// The links of one source relationship, as SQL over the renamed old
/// tables: a `FROM` clause (alias `p`) and the expressions giving each
/// link's owner (`Z_PK` of the object holding the relationship), target
/// and stored order.
///
/// Whatever the source kept them in (a foreign key, the inverse's foreign
/// key, a join table), a destination relationship is filled from these
/// pairs, reversed when it takes its links from its inverse.
struct MigrationLinks {
    var from: String
    var filter: String
    var owner: String
    var target: String
    var order: String?
    /// The inverse's order, for a join table keeping both.
    var inverseOrder: String?
    /// The old table holding the targets (to read their `Z_ENT`).
    var targetTable: String
    /// The old table holding the owners.
    var ownerTable: String

    /// The same links seen from the other side.
    var reversed: MigrationLinks {
        MigrationLinks(from: from, filter: filter, owner: target, target: owner, order: inverseOrder, inverseOrder: order,
                       targetTable: ownerTable, ownerTable: targetTable)
    }

    /// The links of `relationship` of the source entity `entity`.
    static func of(_ relationship: String, entity: EntityLayout, in layout: StoreLayout,
                   oldName: (String) -> String) -> MigrationLinks? {
        guard let storage = entity.relationships[relationship],
              let description = layout.model.relationship(relationship, ofEntityNamed: entity.name),
              let destination = layout.entity(named: description.destinationEntityName) else { return nil }
        let ownerTable = oldName(entity.tableName)
        let targetTable = oldName(destination.tableName)
        switch storage {
        case .foreignKey(let column, _, let order):
            return MigrationLinks(from: "\(ownerTable) p", filter: "p.\(column) IS NOT NULL AND \(entityFilter(entity.entityNumbers, "p"))",
                                  owner: "p.Z_PK", target: "p.\(column)", order: order.map { "p.\($0)" }, inverseOrder: nil,
                                  targetTable: targetTable, ownerTable: ownerTable)
        case .inverseForeignKey(let table, let column, let order):
            return MigrationLinks(from: "\(oldName(table)) p", filter: "p.\(column) IS NOT NULL AND \(entityFilter(destination.entityNumbers, "p"))",
                                  owner: "p.\(column)", target: "p.Z_PK", order: order.map { "p.\($0)" }, inverseOrder: nil,
                                  targetTable: targetTable, ownerTable: ownerTable)
        case .joinTable(let table, let sourceColumn, let destinationColumn, let order):
            var inverseOrder: String?
            if let inverse = layout.model.inverseRelationship(of: description),
               case .joinTable(_, _, _, let other)? = destination.relationships[inverse.name] {
                inverseOrder = other.map { "p.\($0)" }
            }
            return MigrationLinks(from: "\(oldName(table)) p", filter: "1", owner: "p.\(sourceColumn)", target: "p.\(destinationColumn)",
                                  order: order.map { "p.\($0)" }, inverseOrder: inverseOrder,
                                  targetTable: targetTable, ownerTable: ownerTable)
        }
    }

    /// The first target of the object whose `Z_PK` is `ownerKey`, as a scalar subquery.
    func firstTarget(of ownerKey: String) -> String {
        "(SELECT \(target) FROM \(from) WHERE \(filter) AND \(owner) = \(ownerKey) ORDER BY \(order.map { "\($0), " } ?? "")\(target) LIMIT 1)"
    }

    /// The order the link of `ownerKey` had, as a scalar subquery.
    func firstOrder(of ownerKey: String) -> String? {
        order.map { order in
            "(SELECT \(order) FROM \(from) WHERE \(filter) AND \(owner) = \(ownerKey) ORDER BY \(order), \(target) LIMIT 1)"
        }
    }

    static func entityFilter(_ numbers: [Int], _ alias: String) -> String {
        "\(alias).Z_ENT IN (\(numbers.map(String.init).joined(separator: ", ")))"
    }
}
