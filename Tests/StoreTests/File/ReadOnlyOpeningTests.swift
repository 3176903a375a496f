import FileSystem
import Foundation
import PredicateFormat
import Store
import Testing
import TestSupport

@Suite struct ReadOnlyOpeningTests {
    static let fixtureFolder = FixtureModels.stores

    /// Rows live only in the -wal: the replayed image has them, and no
    /// -shm appears beside the store.
    @Test func theWALFixtureReadsItsRowsFromTheLog() throws {
        let before = try TreeSnapshot.take(Self.fixtureFolder)
        let path = FixtureModels.store("CoreDataMigration-Example__CoreDataMigration_Example_WAL.sqlite")
        let store = try PersistentStore.openReadOnly(atPath: path, model: FixtureModels.postsAndColorsV4)
        #expect(try store.count(of: "Post") == 84)
        #expect(try store.count(of: "Color") == 84)
        let posts = try store.objects(of: "Post")
        let withColor = posts.filter { $0.toOne["color"] != nil }
        #expect(!withColor.isEmpty)
        if let post = withColor.first, let color = post.toOne["color"] {
            #expect(try store.object(with: color).toOne["post"] == post.objectID)
            #expect(try store.destinations(of: color, relationship: "post") == [post.objectID])
        }
        #expect(try TreeSnapshot.take(Self.fixtureFolder) == before)
    }

    @Test func subentityRowsReadWithTheirOwnAttributes() throws {
        let path = FixtureModels.store("CoreDataPlus__SampleModel_V1.sqlite")
        let store = try PersistentStore.openReadOnly(atPath: path, model: FixtureModels.sampleModel)
        let cars = try store.objects(of: "Car")
        #expect(cars.count == 125)
        let sport = try store.objects(of: "SportCar", includingSubentities: false)
        let expensive = try store.objects(of: "ExpensiveSportCar")
        #expect(try store.count(of: "SportCar") == sport.count + expensive.count)
        #expect(expensive.allSatisfy { $0.values["isLimitedEdition"] != nil })
        #expect(sport.allSatisfy { $0.values["isLimitedEdition"] == nil })
        let people = try store.objects(of: "Person")
        #expect(people.count == 20)
        #expect(people.allSatisfy { if case .uuid = $0["id"] { true } else { false } })
        #expect(people.allSatisfy { if case .date = $0["updatedAt"] { true } else { false } })
        let owned = cars.filter { $0.toOne["owner"] != nil }
        let total = try people.reduce(0) { $0 + (try store.destinations(of: $1.objectID, relationship: "cars").count) }
        #expect(total == owned.count)
    }

    @Test func hostileFilesAreTypedErrors() throws {
        let directory = try TemporaryDirectory("store-hostile")
        let original = try #require(try FileSystemPaths.readFile(atPath: FixtureModels.store("CoreDataStack__TestModel.sqlite")))
        let cases: [(String, Data, StoreError.Code)] = [
            ("empty.sqlite", Data(), .notADatabase),
            ("garbage.sqlite", Data(repeating: 0x5a, count: 4096), .notADatabase),
            ("short.sqlite", original.prefix(60), .notADatabase),
            ("truncated.sqlite", original.prefix(original.count - 4096), .notADatabase),
            ("not-core-data.sqlite", try Self.plainSQLite(directory), .notACoreDataStore),
        ]
        for (name, bytes, code) in cases {
            _ = try directory.write(bytes, to: name)
            do {
                _ = try PersistentStore.openReadOnly(atPath: directory.path(name), model: FixtureModels.authorsAndBooks)
                Issue.record("\(name) opened")
            } catch {
                #expect(error.code == code, "\(name): \(error)")
                #expect(error.path == directory.path(name))
            }
        }
        // A -wal whose header is damaged.
        _ = try directory.write(original, to: "badwal.sqlite")
        var log = try #require(try FileSystemPaths.readFile(
            atPath: FixtureModels.store("CoreDataMigration-Example__CoreDataMigration_Example_WAL.sqlite-wal")))
        log[26] ^= 0xff
        _ = try directory.write(log, to: "badwal.sqlite-wal")
        #expect(throws: StoreError.self) {
            try PersistentStore.openReadOnly(atPath: directory.path("badwal.sqlite"), model: FixtureModels.authorsAndBooks)
        }
        #expect(!directory.contains("badwal.sqlite-shm"))

        // A hot rollback journal: the main file may be half written.
        _ = try directory.write(original, to: "hot.sqlite")
        var journal = Data([0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7])
        journal.append(Data(count: 504))
        _ = try directory.write(journal, to: "hot.sqlite-journal")
        let error = try #require(throws: StoreError.self) {
            try PersistentStore.openReadOnly(atPath: directory.path("hot.sqlite"), model: FixtureModels.authorsAndBooks)
        }
        #expect(error.code == .interruptedWrite)
        #expect(try FileSystemPaths.readFile(atPath: directory.path("hot.sqlite-journal")) == journal)
    }

    /// Frames after the last valid commit are ignored, as SQLite ignores them.
    @Test func aTornLogKeepsItsEarlierCommits() throws {
        let directory = try TemporaryDirectory("store-torn")
        let name = "CoreDataMigration-Example__CoreDataMigration_Example_WAL.sqlite"
        let main = try #require(try FileSystemPaths.readFile(atPath: FixtureModels.store(name)))
        var log = try #require(try FileSystemPaths.readFile(atPath: FixtureModels.store(name) + "-wal"))
        log.removeLast(1000)
        _ = try directory.write(main, to: "torn.sqlite")
        _ = try directory.write(log, to: "torn.sqlite-wal")
        let store = try PersistentStore.openReadOnly(atPath: directory.path("torn.sqlite"), model: FixtureModels.postsAndColorsV4)
        #expect(try store.count(of: "Post") <= 84)
        #expect(!directory.contains("torn.sqlite-shm"))
    }

    static func plainSQLite(_ directory: TemporaryDirectory) throws -> Data {
        let path = directory.path("plain-source.sqlite")
        let queue = try GRDBHelpers.queue(path)
        try queue.write { db in try db.execute(sql: "CREATE TABLE t (x)") }
        try queue.close()
        return try #require(try FileSystemPaths.readFile(atPath: path))
    }
}
