import Foundation
import GRDB
import PredicateFormat
import Store
import Testing
import TestSupport

@Suite struct ObjectContextTests {
    static func newStore(_ model: ObjectModel, _ label: String) throws -> (TemporaryDirectory, PersistentStore) {
        let directory = try TemporaryDirectory(label)
        return (directory, try PersistentStore.create(atPath: directory.path("store.sqlite"), model: model))
    }

    @Test func insertAllocatesKeysFromZMaxAndSavesOneTransaction() throws {
        let (directory, store) = try Self.newStore(FixtureModels.sampleModel, "ctx-insert")
        defer { withExtendedLifetime(directory) {} }
        let context = ObjectContext(store: store)
        let person = try context.insert("Person", values: [
            "firstName": .string("Ada"), "lastName": .string("Lovelace"),
            "id": .uuid(UUID()), "updatedAt": .date(Date(timeIntervalSinceReferenceDate: 1000)),
        ])
        let car = try context.insert("ExpensiveSportCar", values: ["numberPlate": .string("AB-1"), "isLimitedEdition": .bool(true)])
        let plain = try context.insert("Car", values: ["numberPlate": .string("AB-2")])
        try context.setToOne("owner", of: car, to: person)
        try context.add(plain, to: "cars", of: person)
        #expect(Set(try context.destinations(of: person, relationship: "cars")) == [car, plain])
        let changes = try context.save()
        #expect(changes.inserted.count == 3)
        let savedPerson = try #require(changes.permanentIDs[person])
        let savedCar = try #require(changes.permanentIDs[car])
        #expect(savedCar.primaryKey == 1)
        #expect(changes.permanentIDs[plain]?.primaryKey == 2)
        #expect(savedPerson.primaryKey == 1)
        let rows = try store.primaryKeyRows()
        #expect(rows.first { $0.name == "Car" }?.maximumKey == 2)
        #expect(rows.first { $0.name == "ExpensiveSportCar" }?.maximumKey == 0)
        let read = try store.object(with: savedCar)
        #expect(read.version == 1)
        #expect(read["isLimitedEdition"] == .bool(true))
        #expect(read.toOne["owner"] == savedPerson)
        #expect(try store.destinations(of: savedPerson, relationship: "cars").count == 2)
        #expect(try store.object(with: savedPerson)["updatedAt"] == .date(Date(timeIntervalSinceReferenceDate: 1000)))
    }

    @Test func updatesBumpZOptAndReportChangedKeys() throws {
        let (directory, store) = try Self.newStore(FixtureModels.postsAndSections, "ctx-update")
        defer { withExtendedLifetime(directory) {} }
        let context = ObjectContext(store: store)
        let post = try context.insert("Post", values: ["postID": .string("p1")])
        let saved = try #require(try context.save().permanentIDs[post])
        try context.set(.string("#fff"), for: "hexColor", of: saved)
        let changes = try context.save()
        #expect(changes.updated == [saved: ["hexColor"]])
        #expect(try store.object(with: saved).version == 2)
        try context.set(.string("#000"), for: "hexColor", of: saved)
        try context.save()
        #expect(try store.object(with: saved).version == 3)
        #expect(try store.object(with: saved)["hexColor"] == .string("#000"))
    }

    @Test func aConflictingSaveFromAnotherConnectionIsATypedError() throws {
        let (directory, store) = try Self.newStore(FixtureModels.postsAndSections, "ctx-conflict")
        defer { withExtendedLifetime(directory) {} }
        let setup = ObjectContext(store: store)
        let post = try setup.insert("Post", values: ["postID": .string("p1")])
        let id = try #require(try setup.save().permanentIDs[post])

        let mine = ObjectContext(store: store)
        _ = try mine.object(with: id)
        let other = ObjectContext(store: try PersistentStore.open(atPath: directory.path("store.sqlite"),
                                                                   model: FixtureModels.postsAndSections))
        try other.set(.string("theirs"), for: "hexColor", of: id)
        try other.save()

        try mine.set(.string("mine"), for: "hexColor", of: id)
        do {
            try mine.save()
            Issue.record("the save should conflict")
        } catch {
            #expect(error.code == .conflict)
            #expect(error.objects == [id])
        }
        #expect(try store.object(with: id)["hexColor"] == .string("theirs"))
        #expect(mine.hasChanges)
        mine.rollback()
        #expect(!mine.hasChanges)
        try mine.set(.string("mine"), for: "hexColor", of: id)
        try mine.save()
        #expect(try store.object(with: id)["hexColor"] == .string("mine"))
    }

    @Test func deleteRulesCascadeNullifyAndDeny() throws {
        let (directory, store) = try Self.newStore(FixtureModels.postsAndSections, "ctx-delete")
        defer { withExtendedLifetime(directory) {} }
        let context = ObjectContext(store: store)
        let post = try context.insert("Post")
        let sections = try (0..<3).map { index in
            try context.insert("Section", values: ["index": .integer(Int64(index))])
        }
        try context.setToMany("sections", of: post, to: sections)
        let ids = try context.save().permanentIDs
        let savedPost = try #require(ids[post])
        #expect(try store.count(of: "Section") == 3)

        // Nullify: deleting a section clears nothing on the post's row but leaves the post.
        let first = try #require(ids[sections[0]])
        try context.delete(first)
        #expect(try context.destinations(of: savedPost, relationship: "sections").count == 2)
        try context.save()
        #expect(try store.destinations(of: savedPost, relationship: "sections").count == 2)

        // Cascade: deleting the post deletes its sections.
        try context.delete(savedPost)
        let changes = try context.save()
        #expect(changes.deleted.count == 3)
        #expect(try store.count(of: "Section") == 0)
        #expect(try store.count(of: "Post") == 0)

        // Deny.
        var model = FixtureModels.postsAndSections
        model.entities[0].relationships[0].deleteRule = .deny
        let (denyDirectory, denying) = try Self.newStore(model, "ctx-deny")
        defer { withExtendedLifetime(denyDirectory) {} }
        let denyContext = ObjectContext(store: denying)
        let owner = try denyContext.insert("Post")
        let child = try denyContext.insert("Section")
        try denyContext.setToOne("post", of: child, to: owner)
        let denyIDs = try denyContext.save().permanentIDs
        let savedOwner = try #require(denyIDs[owner])
        do {
            try denyContext.delete(savedOwner)
            Issue.record("the delete should be denied")
        } catch {
            #expect(error.code == .deleteDenied)
            #expect(error.objects == [denyIDs[child]])
        }
        #expect(!denyContext.hasChanges)
    }

    @Test func oneToOneInversesFollow() throws {
        let (directory, store) = try Self.newStore(FixtureModels.postsAndColors, "ctx-one-to-one")
        defer { withExtendedLifetime(directory) {} }
        let context = ObjectContext(store: store)
        let post = try context.insert("Post")
        let red = try context.insert("Color", values: ["hex": .string("f00")])
        let blue = try context.insert("Color", values: ["hex": .string("00f")])
        try context.setToOne("color", of: post, to: red)
        #expect(try context.object(with: red).toOne["post"] == post)
        try context.setToOne("post", of: blue, to: post)
        #expect(try context.object(with: post).toOne["color"] == blue)
        #expect(try context.object(with: red).toOne["post"] == nil)
        let ids = try context.save().permanentIDs
        #expect(try store.object(with: ids[post]!).toOne["color"] == ids[blue])
        #expect(try store.object(with: ids[blue]!).toOne["post"] == ids[post])
        #expect(try store.object(with: ids[red]!).toOne["post"] == nil)
    }

    @Test func manyToManyGoesThroughTheJoinTable() throws {
        let (directory, store) = try Self.newStore(FixtureModels.authorsAndBooks, "ctx-many")
        defer { withExtendedLifetime(directory) {} }
        let context = ObjectContext(store: store)
        let author = try context.insert("Author", values: ["lastName": .string("Pratchett")])
        let coauthor = try context.insert("Author", values: ["lastName": .string("Gaiman")])
        let book = try context.insert("Book", values: ["title": .string("Good Omens")])
        try context.setToMany("authors", of: book, to: [author, coauthor])
        #expect(try context.destinations(of: author, relationship: "books") == [book])
        let ids = try context.save().permanentIDs
        #expect(try store.destinations(of: ids[book]!, relationship: "authors") == [ids[author]!, ids[coauthor]!])
        #expect(try store.destinations(of: ids[coauthor]!, relationship: "books") == [ids[book]!])
        try context.delete(ids[author]!)
        try context.save()
        #expect(try store.destinations(of: ids[book]!, relationship: "authors") == [ids[coauthor]!])
    }

    @Test func wrongValuesAndReadOnlyStoresAreTypedErrors() throws {
        let (directory, store) = try Self.newStore(FixtureModels.postsAndSections, "ctx-errors")
        defer { withExtendedLifetime(directory) {} }
        let context = ObjectContext(store: store)
        #expect(throws: StoreError.self) { try context.insert("Post", values: ["date": .string("yesterday")]) }
        #expect(throws: StoreError.self) { try context.insert("Nope") }
        #expect(throws: StoreError.self) { try context.insert("Post", values: ["nope": .null]) }
        let readOnly = try PersistentStore.openReadOnly(atPath: FixtureModels.store("CoreDataMigrationRevised-Example__CoreDataMigration_Example_3.sqlite"),
                                                        model: FixtureModels.postsAndSections)
        let readOnlyContext = ObjectContext(store: readOnly)
        _ = try readOnlyContext.insert("Post")
        do {
            try readOnlyContext.save()
            Issue.record("a read-only store saved")
        } catch {
            #expect(error.code == .readOnly)
        }
    }
}
