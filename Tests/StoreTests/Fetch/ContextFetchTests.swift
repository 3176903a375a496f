import Foundation
import PredicateFormat
import Store
import Testing
import TestSupport

@Suite struct ContextFetchTests {
    /// A context's fetch sees its own unsaved inserts, updates and deletes,
    /// sorted and windowed as the store's fetch would be after a save.
    @Test func fetchIncludesUnsavedChanges() throws {
        let directory = try TemporaryDirectory("store-context-fetch")
        let store = try PersistentStore.create(atPath: directory.path("store.sqlite"), model: FixtureModels.postsAndSections)
        let context = ObjectContext(store: store)
        let titles = ["Äpfel", "banana", "apple pie", "cherry", "Apricot"]
        var ids: [ObjectID] = []
        for (index, title) in titles.enumerated() {
            ids.append(try context.insert("Section", values: ["title": .string(title), "index": .integer(Int64(index))]))
        }
        let saved = try context.save().permanentIDs
        var request = FetchRequest(entityName: "Section")
        request.predicate = try FormatPredicate(format: "title BEGINSWITH[cd] %@", arguments: [.string("a")])
        request.sortDescriptors = [StoreSortDescriptor(keyPath: "title")]
        #expect(Set(try context.fetch(request).map { $0["title"] }) == Set(["Apricot", "apple pie", "Äpfel"].map { AttributeValue.string($0) }))
        let storeOrder = try store.fetch(request).map(\.objectID)
        #expect(try context.fetch(request).map(\.objectID) == storeOrder)

        // Unsaved: one renamed into the match, one out of it, one deleted, one inserted.
        try context.set(.string("avocado"), for: "title", of: try #require(saved[ids[1]]))
        try context.set(.string("pear"), for: "title", of: try #require(saved[ids[2]]))
        try context.delete(try #require(saved[ids[4]]))
        _ = try context.insert("Section", values: ["title": .string("almond")])
        let pending = try context.fetch(request).map { $0["title"] }
        try context.save()
        let after = try store.fetch(request).map { $0["title"] }
        #expect(pending == after)
        #expect(Set(after) == Set(["Äpfel", "avocado", "almond"].map { AttributeValue.string($0) }))

        // Limit and offset apply after the merge.
        _ = try context.insert("Section", values: ["title": .string("aardvark")])
        request.fetchLimit = 2
        request.fetchOffset = 1
        let window = try context.fetch(request).map { $0["title"] }
        try context.save()
        #expect(window == (try store.fetch(request).map { $0["title"] }))
    }
}
