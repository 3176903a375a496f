import Foundation
import PredicateFormat
import Store
import Testing
import TestSupport

@Suite struct LargeSaveTests {
    /// 20,000 objects in one save: keys 1…20,000, one Z_MAX update, and a
    /// time printed for comparison with plain GRDB inserts (debug build).
    @Test func twentyThousandObjectsInOneSave() throws {
        let directory = try TemporaryDirectory("store-large-save")
        let store = try PersistentStore.create(atPath: directory.path("store.sqlite"), model: FixtureModels.postsAndSections)
        let context = ObjectContext(store: store)
        let start = Date()
        for index in 0..<20_000 {
            _ = try context.insert("Section", values: ["index": .integer(Int64(index)), "title": .string("section \(index)")])
        }
        let inserted = Date()
        let changes = try context.save()
        let saved = Date()
        print("LargeSaveTests: 20,000 inserts \(Int(inserted.timeIntervalSince(start) * 1000)) ms, save \(Int(saved.timeIntervalSince(inserted) * 1000)) ms")
        #expect(changes.inserted.count == 20_000)
        #expect(Set(changes.inserted.map(\.primaryKey)) == Set(1...20_000))
        #expect(try store.primaryKeyRows().first { $0.name == "Section" }?.maximumKey == 20_000)
        #expect(try store.count(of: "Section") == 20_000)
    }
}
