import FileSystem
import Foundation
import PredicateFormat
import Store
import Testing
import TestSupport

/// Every Core Data fixture, opened read-only with the model it caches.
@Suite struct EveryFixtureTests {
    static let manifest: [(file: String, tables: [String: Int])] = {
        let path = FixtureModels.root.appendingPathComponent("MANIFEST.tsv").path
        guard let data = try? FileSystemPaths.readFile(atPath: path) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count > 6 else { return nil }
            var tables: [String: Int] = [:]
            if let open = fields[6].firstIndex(of: "("), let close = fields[6].lastIndex(of: ")") {
                for pair in fields[6][fields[6].index(after: open)..<close].split(separator: ",") {
                    let parts = pair.split(separator: "=")
                    if parts.count == 2, let count = Int(parts[1]) { tables[String(parts[0])] = count }
                }
            }
            return (fields[0], tables)
        }
    }()

    static var storeNames: [String] { manifest.map(\.file) }

    @Test func theManifestListsEighteenStores() {
        #expect(Self.manifest.count == 18)
    }

    /// Each entity's rows read back with their relationships, the row
    /// counts are the manifest's, and nothing appears beside the store.
    @Test(arguments: storeNames)
    func opensAndReadsEveryEntity(file: String) throws {
        let before = try TreeSnapshot.take(FixtureModels.stores)
        let tables = try #require(Self.manifest.first { $0.file == file }?.tables)
        let (store, _, origin) = try PersistentStore.openReadOnly(atPath: FixtureModels.store(file))
        #expect(origin == .modelCache)
        var rowsByTable: [String: Int] = [:]
        for root in store.layout.entities where root.isRoot {
            rowsByTable[root.tableName] = try store.count(of: root.name)
        }
        for (table, count) in tables where table.hasPrefix("Z") {
            #expect(rowsByTable[table] == count, "\(file) \(table)")
        }
        for entity in store.layout.entities {
            let objects = try store.objects(of: entity.name, includingSubentities: false)
            #expect(objects.allSatisfy { $0.objectID.entityName == entity.name })
            for object in objects.prefix(50) {
                #expect(Set(object.values.keys) == Set(entity.attributes.keys))
                for name in entity.relationships.keys {
                    let destinations = try store.destinations(of: object.objectID, relationship: name)
                    for destination in destinations.prefix(3) {
                        _ = try store.object(with: destination)
                    }
                    if let toOne = object.toOne[name] { #expect(destinations == [toOne]) }
                }
            }
        }
        #expect(try TreeSnapshot.take(FixtureModels.stores) == before)
    }

    /// The layout derived from the cached model is the store's schema,
    /// table for table and index for index.
    @Test(arguments: storeNames)
    func derivedLayoutMatchesSqliteMaster(file: String) throws {
        let (store, _, _) = try PersistentStore.openReadOnly(atPath: FixtureModels.store(file))
        let layout = try StoreLayout(model: store.layout.model)
        let fixture = try FixtureSchema.modelEntries(FixtureModels.store(file))
        let theirTables = Set(fixture.filter { $0.type == "table" }.map(\.sql))
        let ourTables = Set(layout.tables.map(\.createStatement) + StoreLayout.bookkeepingStatements)
        #expect(ourTables == theirTables, "\(file)")
        let theirIndexes = Set(fixture.filter { $0.type == "index" }.map(\.sql))
        #expect(Set(layout.indexes.map(\.createStatement)) == theirIndexes, "\(file)")
    }
}

@Suite struct TransformableTests {
    /// SampleModel2's Book.cover and Page.content are keyed archives.
    @Test func transformablesDecodeThroughKeyedArchive() throws {
        let (store, _, _) = try PersistentStore.openReadOnly(atPath: FixtureModels.store("CoreDataPlus__SampleModel2_V1.sqlite"))
        let pages = try store.objects(of: "Page").prefix(20)
        var decoded = 0
        for page in pages {
            if case .data = page["content"] {
                #expect(try page.archivedValue(for: "content") != nil)
                decoded += 1
            }
        }
        #expect(decoded > 0)
        let book = try #require(try store.objects(of: "Book").first { if case .data = $0["cover"] { true } else { false } })
        let cover = try #require(try book.archivedValue(for: "cover"))
        #expect(cover.object != nil)
        #expect(try book.archivedValue(for: "title") == nil)
    }
}
