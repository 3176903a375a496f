import Container
import Foundation
import PredicateFormat
import Store
import Testing
import TestSupport

@Suite struct ContainerStoreTests {
    @Test func theAppsStoreLivesInApplicationSupportAndReopens() throws {
        let directory = try TemporaryDirectory("store-container")
        let container = try AppContainer.create(at: directory.file("container"), bundleName: "Possessions")
        let store = try PersistentStore.openOrCreate(named: "Possessions", in: container, model: FixtureModels.postsAndSections)
        #expect(store.path.hasSuffix("/Library/Application Support/Possessions.sqlite"))
        let context = ObjectContext(store: store)
        _ = try context.insert("Post", values: ["postID": .string("p1")])
        try context.save()
        let reopened = try PersistentStore.openOrCreate(named: "Possessions", in: container, model: FixtureModels.postsAndSections)
        #expect(try reopened.count(of: "Post") == 1)
    }
}
