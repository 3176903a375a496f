import Container
import Foundation
import PredicateFormat
import Store
import Testing
import TestSupport

/// Random writes from two connections and from another process (Python's
/// sqlite3, as Core Data writes: Z_OPT + 1, keys above Z_MAX), mixed with
/// changes of predicate and sort under one cache name: after every step the
/// controller equals a fresh fetch, and its change set turns the old
/// snapshot into the new one.
@Suite struct ControllerPropertyTests {
    static let model = ObjectModel(entities: [
        EntityDescription(name: "Item", attributes: [
            AttributeDescription(name: "name", type: .string),
            AttributeDescription(name: "shelf", type: .string),
            AttributeDescription(name: "value", type: .integer64),
        ]),
    ])
    static let names = ["lamp", "Lamp shade", "LAMPE", "Lámpara", "mug", "Mug", "spork", "bear", "Äpfel", "äpfel", "café", "cafe"]
    static let shelves = ["A", "B", "b", "C", ""]
    static let predicates: [String?] = [nil, #"name CONTAINS[c] "lamp""#, #"name BEGINSWITH[cd] "a""#, "value > 40",
                                        #"shelf IN {"A", "b"} OR value < 10"#, #"NOT (name ENDSWITH[c] "e")"#]
    static let sorts: [[StoreSortDescriptor]] = [
        [StoreSortDescriptor(keyPath: "shelf"), StoreSortDescriptor(keyPath: "name", comparison: .caseInsensitiveCompare)],
        [StoreSortDescriptor(keyPath: "shelf", ascending: false), StoreSortDescriptor(keyPath: "value")],
        [StoreSortDescriptor(keyPath: "shelf", comparison: .localizedStandardCompare), StoreSortDescriptor(keyPath: "value", ascending: false)],
    ]

    /// The other process: one insert, update or delete, as Core Data writes them.
    static let pythonWriter = """
        import sqlite3, sys
        path, op, a, b, c = sys.argv[1:6]
        db = sqlite3.connect(path, timeout=10, isolation_level=None)
        db.execute("BEGIN IMMEDIATE")
        if op == "insert":
            (top,) = db.execute("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1").fetchone()
            db.execute("INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZNAME, ZSHELF, ZVALUE) VALUES (?, 1, 1, ?, ?, ?)", (top + 1, a, b, int(c)))
            db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = 1", (top + 1,))
        elif op == "update":
            db.execute("UPDATE ZITEM SET ZNAME = ?, ZVALUE = ?, Z_OPT = Z_OPT + 1 WHERE Z_PK = (SELECT Z_PK FROM ZITEM ORDER BY Z_PK LIMIT 1 OFFSET ?)", (a, int(c), int(b)))
        else:
            db.execute("DELETE FROM ZITEM WHERE Z_PK = (SELECT Z_PK FROM ZITEM ORDER BY Z_PK LIMIT 1 OFFSET ?)", (int(b),))
        db.execute("COMMIT")
        """

    @Test func theControllerAlwaysEqualsAFreshFetch() throws {
        let directory = try TemporaryDirectory("frc-property")
        let container = try AppContainer.create(at: directory.url.appendingPathComponent("home"), bundleName: "Items")
        let path = container.url(forRelativePath: "Library/Application Support/Items.sqlite").path
        let first = try PersistentStore.create(atPath: path, model: Self.model)
        let second = try PersistentStore.open(atPath: path, model: Self.model)
        let identifier = try first.storeIdentifier()
        let cache = ResultsCache(container: container, name: "items")
        var random = SeededGenerator(seed: 1616)

        func makeController() throws -> (FetchedResultsController<FetchRequestResults>, FetchRequestResults) {
            let format = Self.predicates.randomElement(using: &random) ?? nil
            let request = FetchRequest(entityName: "Item", predicate: try format.map { try FormatPredicate(format: $0, arguments: []) },
                                       sortDescriptors: Self.sorts.randomElement(using: &random) ?? [])
            let source = try FetchRequestResults(store: first, request: request, sectionKeyPath: "shelf")
            let controller = FetchedResultsController(source: source, batchSize: 7,
                                                      cache: (cache, source.fingerprint(storeIdentifier: identifier)))
            try controller.performFetch()
            return (controller, source)
        }
        func write(_ store: PersistentStore) throws {
            let context = ObjectContext(store: store)
            let existing = try store.fetchObjectIDs(FetchRequest(entityName: "Item"))
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                switch Int.random(in: 0..<4, using: &random) {
                case 0 where !existing.isEmpty:
                    let id = existing.randomElement(using: &random)!
                    if !context.deletedObjectIDs.contains(id) { try context.delete(id) }
                case 1 where !existing.isEmpty:
                    let id = existing.randomElement(using: &random)!
                    if !context.deletedObjectIDs.contains(id) {
                        try context.set(.string(Self.names.randomElement(using: &random)!), for: "name", of: id)
                        try context.set(.integer(Int64.random(in: 0..<100, using: &random)), for: "value", of: id)
                    }
                default:
                    _ = try context.insert("Item", values: ["name": .string(Self.names.randomElement(using: &random)!),
                                                            "shelf": .string(Self.shelves.randomElement(using: &random)!),
                                                            "value": .integer(Int64.random(in: 0..<100, using: &random))])
                }
            }
            if context.hasChanges { _ = try context.save() }
        }

        var (controller, source) = try makeController()
        for step in 0..<80 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<3: try write(first)
            case 3..<6: try write(second)
            case 6..<8:
                let count = try first.count(FetchRequest(entityName: "Item"))
                let op = count == 0 ? "insert" : ["insert", "update", "delete"].randomElement(using: &random)!
                let result = try ChildProcess.python(["-c", Self.pythonWriter, path, op, Self.names.randomElement(using: &random)!,
                                                      op == "insert" ? Self.shelves.randomElement(using: &random)! : String(Int.random(in: 0..<max(count, 1), using: &random)),
                                                      String(Int.random(in: 0..<100, using: &random))])
                #expect(result.status == 0, "\(result.standardError)")
            default:
                (controller, source) = try makeController()
            }
            let before = controller.snapshot
            let changes = try controller.refresh()
            let fresh = try source.currentResults().snapshot
            #expect(controller.snapshot == fresh, "step \(step)")
            #expect(try before.applying(changes) == fresh, "step \(step)")
            if let first = fresh.sections.first?.ids.first {
                let object = try #require(try controller.object(at: ResultsIndexPath(section: 0, item: 0)))
                #expect(object.objectID.primaryKey == first.primaryKey, "step \(step)")
            }
        }
    }
}
