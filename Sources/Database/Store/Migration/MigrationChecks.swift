import GRDB

/// Evaluates a plan's ``MigrationPlan/checks`` against the store's data,
/// before anything is written: a required attribute or relationship the
/// destination adds (or makes required) must not be empty on any row.
struct MigrationChecks {
    let executor: MigrationStepExecutor

    func evaluate(_ db: Database) throws {
        for check in executor.plan.checks {
            switch check {
            case .noNullValues(let entity, let attribute):
                try checkAttribute(attribute, of: entity, db)
            case .noEmptyRelationship(let entity, let relationship):
                try checkRelationship(relationship, of: entity, db)
            }
        }
    }

    /// The rows that become objects of `entity`: their table and a filter, or nil when there are none.
    private func rows(of entity: String) -> (table: String, filter: String)? {
        guard let destination = executor.destinationLayout.entity(named: entity) else { return nil }
        let numbers = executor.sourceNumbers(into: destination)
        guard let number = numbers.first, let table = executor.sourceLayout.entity(number: number)?.tableName else { return nil }
        return (table, "o.Z_ENT IN (\(numbers.map(String.init).joined(separator: ", ")))")
    }

    private func failing(_ db: Database, entity: String, condition: String) throws -> (count: Int, sql: String)? {
        guard let rows = rows(of: entity) else { return nil }
        let sql = "SELECT count(*) FROM \(rows.table) o WHERE \(rows.filter) AND \(condition)"
        let count = try Int.fetchOne(db, sql: sql) ?? 0
        return count > 0 ? (count, sql) : nil
    }

    private func checkAttribute(_ name: String, of entity: String, _ db: Database) throws {
        guard let mapping = executor.plan.mapping(forEntity: entity),
              let attribute = mapping.attributes.first(where: { $0.name == name }) else { return }
        var condition = "1"
        if case .attribute(let from) = attribute.source, let column = executor.sourceEntity(of: entity)?.attributes[from]?.column {
            condition = "o.\(column) IS NULL"
        }
        if let failure = try failing(db, entity: entity, condition: condition) {
            throw StoreMigrationError(.checkFailed, "\(failure.count) objects would have no value for the required attribute \(name)",
                                      entity: entity, property: name, sql: failure.sql)
        }
    }

    private func checkRelationship(_ name: String, of entity: String, _ db: Database) throws {
        guard let mapping = executor.plan.mapping(forEntity: entity),
              let relationship = mapping.relationships.first(where: { $0.name == name }) else { return }
        var condition = "1"
        if let links = executor.links(for: relationship, ofEntity: entity, setAside: false) {
            condition = "NOT EXISTS (SELECT 1 FROM \(links.from) WHERE \(links.filter) AND \(links.owner) = o.Z_PK)"
        }
        if let failure = try failing(db, entity: entity, condition: condition) {
            throw StoreMigrationError(.checkFailed, "\(failure.count) objects would have no destination for the required relationship \(name)",
                                      entity: entity, property: name, sql: failure.sql)
        }
    }
}
