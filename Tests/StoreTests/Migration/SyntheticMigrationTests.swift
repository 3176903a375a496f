import Foundation
import Store
import TestSupport
import Testing

/// Migrations over what the fixtures lack: a many-to-many join table whose
/// owner entity is renamed (so the table and its columns are renamed),
/// entity numbers that all shift, a polymorphic key to a hierarchy, an
/// ordered to-many, and a renamed attribute in a sub-entity.
@Suite struct SyntheticMigrationTests {
    static let v1 = ObjectModel(entities: [
        EntityDescription(name: "Author", attributes: [AttributeDescription(name: "name", type: .string)], relationships: [
            RelationshipDescription(name: "books", destinationEntityName: "Book", inverseName: "authors", isToMany: true),
        ]),
        EntityDescription(name: "Book", attributes: [AttributeDescription(name: "title", type: .string)], relationships: [
            RelationshipDescription(name: "authors", destinationEntityName: "Author", inverseName: "books", isToMany: true),
            RelationshipDescription(name: "shelf", destinationEntityName: "Shelf", inverseName: "books"),
        ]),
        EntityDescription(name: "Gadget", superentityName: "Item", attributes: [AttributeDescription(name: "power", type: .integer32)]),
        EntityDescription(name: "Item", attributes: [AttributeDescription(name: "label", type: .string)], relationships: [
            RelationshipDescription(name: "fans", destinationEntityName: "Owner", inverseName: "favorite", isToMany: true),
        ]),
        EntityDescription(name: "Owner", attributes: [AttributeDescription(name: "name", type: .string)], relationships: [
            RelationshipDescription(name: "favorite", destinationEntityName: "Item", inverseName: "fans"),
        ]),
        EntityDescription(name: "Shelf", attributes: [AttributeDescription(name: "room", type: .string)], relationships: [
            RelationshipDescription(name: "books", destinationEntityName: "Book", inverseName: "shelf", isToMany: true, isOrdered: true),
        ]),
    ])

    /// Author → Writer, Book.title → Book.name, Gadget.power → Gadget.watts,
    /// new Archive and Bag entities (every later entity's number shifts),
    /// Item.color added with a default, Gadget.voltage added with a default.
    static var v2: ObjectModel {
        var model = v1
        model.entities[0].name = "Writer"
        model.entities[0].renamingIdentifier = "Author"
        model.entities[1].attributes = [AttributeDescription(name: "name", type: .string, renamingIdentifier: "title")]
        model.entities[1].relationships[0].destinationEntityName = "Writer"
        model.entities[2].attributes = [
            AttributeDescription(name: "voltage", type: .integer32, defaultValue: "220"),
            AttributeDescription(name: "watts", type: .integer32, renamingIdentifier: "power"),
        ]
        model.entities[3].attributes.append(AttributeDescription(name: "color", type: .string, isOptional: false, defaultValue: "red"))
        model.entities.append(EntityDescription(name: "Archive", attributes: [AttributeDescription(name: "year", type: .integer16)]))
        model.entities.append(EntityDescription(name: "Bag"))
        return model
    }

    static func makeStore(_ path: String) throws {
        let store = try SyntheticStore(path: path, model: v1)
        for (key, name) in [(1, "Ada"), (2, "Brontë"), (3, "Cao")] { try store.insert("Author", key: Int64(key), values: ["name": name]) }
        try store.insert("Shelf", key: 1, values: ["room": "hall"])
        for (key, title, position) in [(1, "Emma", 2), (2, "Lelia", 3), (3, "Dream", 1), (4, "Loose", 0)] {
            var shelf: [String: (key: Int64, entity: String)] = [:]
            if position > 0 { shelf["shelf"] = (1, "Shelf") }
            try store.insert("Book", key: Int64(key), values: ["title": title], toOne: shelf, order: ["shelf": position])
        }
        for (author, book) in [(1, 1), (1, 3), (2, 2), (3, 3), (3, 4)] { try store.link("Author", "books", from: Int64(author), to: Int64(book)) }
        try store.insert("Item", key: 1, values: ["label": "lamp"])
        try store.insert("Gadget", key: 2, values: ["label": "radio", "power": 40])
        try store.insert("Item", key: 3, values: ["label": "rug"])
        try store.insert("Gadget", key: 4, values: ["label": "fan", "power": 60])
        try store.insert("Owner", key: 1, values: ["name": "Oz"], toOne: ["favorite": (2, "Gadget")])
        try store.insert("Owner", key: 2, values: ["name": "Pat"], toOne: ["favorite": (1, "Item")])
        try store.insert("Owner", key: 3, values: ["name": "Quin"])
        try store.close()
    }

    /// Every relationship's destinations of every object, entity names given as in `renames`.
    static func links(_ path: String, model: ObjectModel, renames: [String: String] = [:]) throws -> [String: [ObjectID]] {
        let store = try PersistentStore.openReadOnly(atPath: path, model: model)
        var result: [String: [ObjectID]] = [:]
        for entity in model.entities where entity.superentityName == nil {
            for object in try store.objects(of: entity.name) {
                for relationship in model.allRelationships(ofEntityNamed: object.objectID.entityName) {
                    let owner = renames[object.objectID.entityName] ?? object.objectID.entityName
                    result["\(owner)/\(object.objectID.primaryKey).\(relationship.name)"] =
                        try store.destinations(of: object.objectID, relationship: relationship.name)
                            .map { ObjectID(entityName: renames[$0.entityName] ?? $0.entityName, primaryKey: $0.primaryKey) }
                }
            }
        }
        return result
    }

    @Test func joinTablesPolymorphicKeysOrderAndSubentityRenames() throws {
        let directory = try TemporaryDirectory("migration-synthetic")
        let path = directory.path("synthetic.sqlite")
        try Self.makeStore(path)
        let v2 = Self.v2
        let before = try MigrationFixtures.objects(path, model: Self.v1)
        let linksBefore = try Self.links(path, model: Self.v1, renames: ["Author": "Writer"])
        #expect(linksBefore["Writer/3.books"]?.map(\.primaryKey) == [3, 4])
        #expect(linksBefore["Shelf/1.books"]?.map(\.primaryKey) == [3, 1, 2])

        let report = try StoreMigrator.migrate(storeAtPath: path, from: Self.v1, to: v2)
        let layout = try StoreLayout(model: v2)
        #expect(layout.table(named: "Z_3AUTHORS") != nil && layout.entity(named: "Item")?.number == 4)
        #expect(report.steps.first?.rowsCopied["Z_3AUTHORS"] == 5)
        try MigratedStoreCheck.verify(path, before: before, plan: MigrationPlan(from: Self.v1, to: v2), destination: v2,
                                  uuid: "5E1F7A1C-0000-4000-8000-000000000001")
        #expect(try Self.links(path, model: v2) == linksBefore)

        let store = try PersistentStore.openReadOnly(atPath: path, model: v2)
        let items = try store.objects(of: "Item").sorted { $0.objectID < $1.objectID }
        #expect(items.map(\.objectID.entityName) == ["Gadget", "Gadget", "Item", "Item"])
        #expect(items.allSatisfy { $0["color"] == .string("red") })
        let gadgets = items.filter { $0.objectID.entityName == "Gadget" }
        #expect(gadgets.map { $0["watts"] } == [.integer(40), .integer(60)])
        #expect(gadgets.allSatisfy { $0["voltage"] == .integer(220) })
        // Plain Items have no voltage column value: the default is the Gadgets' alone.
        let raw = try MigrationFixtures.reading(path) { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM ZITEM WHERE ZVOLTAGE IS NULL AND Z_ENT = 4")
        }
        #expect(raw == 2)
        let owners = try store.objects(of: "Owner").sorted { $0.objectID < $1.objectID }
        #expect(owners.map { $0.toOne["favorite"] } == [ObjectID(entityName: "Gadget", primaryKey: 2), ObjectID(entityName: "Item", primaryKey: 1), nil])
    }

    /// Owner.favorite becomes to-many (a join table now holds its links),
    /// Shelf and Book.shelf are removed, Owner.name becomes required with a default.
    static var v3: ObjectModel {
        var model = v1
        model.entities[1].relationships.removeLast()
        model.entities[4].attributes[0].isOptional = false
        model.entities[4].attributes[0].defaultValue = "anonymous"
        model.entities[4].relationships[0].isToMany = true
        model.entities[3].relationships[0].isToMany = true
        model.entities.remove(at: 5)
        return model
    }

    @Test func aToOneBecomesManyToManyAndAnEntityGoes() throws {
        let directory = try TemporaryDirectory("migration-synthetic")
        let path = directory.path("synthetic.sqlite")
        try Self.makeStore(path)
        let v3 = Self.v3
        let plan = try MigrationPlan(from: Self.v1, to: v3)
        #expect(plan.removedEntities == ["Shelf"] && plan.mapping(forEntity: "Owner")?.relationships.first?.cardinalityChanged == true)
        let before = try MigrationFixtures.objects(path, model: Self.v1)
        let maximums = try MigrationFixtures.bookkeeping(path).primaryKeys
        try StoreMigrator.migrate(storeAtPath: path, from: Self.v1, to: v3)
        let after = try MigrationFixtures.objects(path, model: v3)
        #expect(after.count == before.count - 1)
        #expect(after.filter { $0.objectID.entityName == "Owner" }.map { $0["name"] }.sorted { "\($0)" < "\($1)" }
                == [.string("Oz"), .string("Pat"), .string("Quin")])
        let store = try PersistentStore.openReadOnly(atPath: path, model: v3)
        func owner(_ key: Int64) throws -> [ObjectID] {
            try store.destinations(of: ObjectID(entityName: "Owner", primaryKey: key), relationship: "favorite")
        }
        #expect(try owner(1) == [ObjectID(entityName: "Gadget", primaryKey: 2)])
        #expect(try owner(2) == [ObjectID(entityName: "Item", primaryKey: 1)])
        #expect(try owner(3).isEmpty)
        #expect(try store.destinations(of: ObjectID(entityName: "Gadget", primaryKey: 2), relationship: "fans")
                == [ObjectID(entityName: "Owner", primaryKey: 1)])
        try MigratedStoreCheck.verifyBookkeeping(path, model: v3, uuid: "5E1F7A1C-0000-4000-8000-000000000001")
        // Each entity keeps the largest key it had allocated.
        let kept = try MigrationFixtures.bookkeeping(path).primaryKeys
        for row in kept {
            #expect(row.maximumKey == maximums.first { $0.name == row.name }?.maximumKey)
        }
    }

    @Test func anOptionalAttributeBecomingRequiredTakesItsDefault() throws {
        let directory = try TemporaryDirectory("migration-synthetic")
        let path = directory.path("synthetic.sqlite")
        let store = try SyntheticStore(path: path, model: Self.v1)
        try store.insert("Owner", key: 1, values: ["name": "Oz"])
        try store.insert("Owner", key: 2)
        try store.close()
        var required = Self.v1
        required.entities[4].attributes[0].isOptional = false
        required.entities[4].attributes[0].defaultValue = "anonymous"
        try StoreMigrator.migrate(storeAtPath: path, from: Self.v1, to: required)
        let owners = try PersistentStore.openReadOnly(atPath: path, model: required).objects(of: "Owner")
        #expect(owners.map { $0["name"] } == [.string("Oz"), .string("anonymous")])
    }

    @Test func linksToARemovedSubentityGoWithIt() throws {
        let directory = try TemporaryDirectory("migration-synthetic")
        let path = directory.path("synthetic.sqlite")
        try Self.makeStore(path)
        var withoutGadgets = Self.v1
        withoutGadgets.entities.remove(at: 2)
        try StoreMigrator.migrate(storeAtPath: path, from: Self.v1, to: withoutGadgets)
        let store = try PersistentStore.openReadOnly(atPath: path, model: withoutGadgets)
        #expect(try store.objects(of: "Item").map(\.objectID.primaryKey) == [1, 3])
        let owners = try store.objects(of: "Owner")
        #expect(owners.map { $0.toOne["favorite"] } == [nil, ObjectID(entityName: "Item", primaryKey: 1), nil])
        try MigratedStoreCheck.verifyBookkeeping(path, model: withoutGadgets, uuid: "5E1F7A1C-0000-4000-8000-000000000001")
    }

    @Test func aToManyBecomingOrderedKeepsThePrimaryKeyOrder() throws {
        let directory = try TemporaryDirectory("migration-synthetic")
        let path = directory.path("synthetic.sqlite")
        try Self.makeStore(path)
        let extra = try SyntheticStore(path: path, model: Self.v1, creating: false)
        try extra.insert("Owner", key: 4, values: ["name": "Rae"], toOne: ["favorite": (1, "Item")])
        try extra.close()
        var ordered = Self.v1
        ordered.entities[3].relationships[0].isOrdered = true
        #expect(try MigrationPlan(from: Self.v1, to: ordered).mapping(forEntity: "Item")?.relationships.first?.orderingChanged == true)
        try StoreMigrator.migrate(storeAtPath: path, from: Self.v1, to: ordered)
        let store = try PersistentStore.openReadOnly(atPath: path, model: ordered)
        #expect(try store.destinations(of: ObjectID(entityName: "Item", primaryKey: 1), relationship: "fans").map(\.primaryKey) == [2, 4])
        let orders = try MigrationFixtures.reading(path) { db in
            try Int64?.fetchAll(db, sql: "SELECT Z_FOK_FAVORITE FROM ZOWNER ORDER BY Z_PK")
        }
        #expect(orders == [1, 2, nil, 4])
        try MigratedStoreCheck.verifyBookkeeping(path, model: ordered, uuid: "5E1F7A1C-0000-4000-8000-000000000001")
    }
}
