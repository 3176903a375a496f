import Foundation
import PredicateFormat
import Store
import Testing
import TestSupport

/// A controller following a store's commits reports another process's
/// change through its updates stream, without being asked to refresh.
@Suite struct ControllerObserverTests {
    @Test func anotherProcessesInsertArrivesAsAChange() async throws {
        let directory = try TemporaryDirectory("frc-observer")
        let path = directory.path("Items.sqlite")
        let model = ObjectModel(entities: [EntityDescription(name: "Item", attributes: [AttributeDescription(name: "name", type: .string)])])
        let store = try PersistentStore.create(atPath: path, model: model)
        let context = ObjectContext(store: store)
        _ = try context.insert("Item", values: ["name": .string("lamp")])
        try context.save()
        let request = FetchRequest(entityName: "Item", predicate: try FormatPredicate(format: "name CONTAINS[c] 'lamp'"),
                                   sortDescriptors: [StoreSortDescriptor(keyPath: "name")])
        let controller = FetchedResultsController(source: try FetchRequestResults(store: store, request: request))
        try controller.performFetch()
        var updates = controller.updates().makeAsyncIterator()
        let following = controller.refreshOnCommits(of: try StoreObserver(path: path))
        defer { following.cancel() }

        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1], timeout=10, isolation_level=None)
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (2, 1, 1, 'Desk LAMP')")
            db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 2 WHERE Z_ENT = 1")
            db.execute("COMMIT")
            """
        let result = try ChildProcess.python(["-c", script, path])
        #expect(result.status == 0, "\(result.standardError)")
        let update = await updates.next()
        #expect(update?.changes == [.insert(StoreObjectKey(entityNumber: 1, primaryKey: 2), at: ResultsIndexPath(section: 0, item: 0))])
        #expect(controller.snapshot.count == 2)
    }
}
