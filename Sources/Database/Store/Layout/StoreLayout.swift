import OrderedCollections

/// How Core Data lays a model out in SQLite: entity numbers, tables,
/// columns, join tables and indexes.
///
/// The layout is derived from the model alone, exactly as Core Data
/// derives it, so a store this package creates reads the same in
/// `sqlite_master` as one Core Data made for the same model, and a store
/// Core Data made can be read through the model. See the article
/// <doc:CoreDataLayout> for the rules.
public struct StoreLayout: Sendable, Hashable {
    public var model: ObjectModel
    /// Every entity, in entity-number order (`Z_ENT` 1, 2, …).
    public var entities: [EntityLayout]
    /// Entity tables and join tables, in the order Core Data creates them.
    public var tables: [TableLayout]
    /// The indexes, in the order Core Data creates them (after the tables).
    public var indexes: [IndexLayout]

    /// The layout of the entity named `name`.
    public func entity(named name: String) -> EntityLayout? {
        entities.first { $0.name == name }
    }

    /// The layout of the entity numbered `number` (a row's `Z_ENT`).
    public func entity(number: Int) -> EntityLayout? {
        entities.first { $0.number == number }
    }

    /// The layout of the entity named `name`, or a typed error naming it.
    public func requireEntity(_ name: String) throws(StoreError) -> EntityLayout {
        guard let entity = entity(named: name) else {
            throw StoreError(.invalidValue, "the model has no entity named \(name)", entity: name)
        }
        return entity
    }

    /// The table named `name`.
    public func table(named name: String) -> TableLayout? {
        tables.first { $0.name == name }
    }

    /// Core Data's bookkeeping tables, created after the model's.
    public static let bookkeepingStatements = [
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
        "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
    ]

    /// Every statement that creates the store's schema, in Core Data's order:
    /// the model's tables, their indexes, then `Z_PRIMARYKEY`, `Z_METADATA`
    /// and `Z_MODELCACHE`.
    public var schemaStatements: [String] {
        tables.map(\.createStatement) + indexes.map(\.createStatement) + Self.bookkeepingStatements
    }
}
