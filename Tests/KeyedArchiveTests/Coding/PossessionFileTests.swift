import Foundation
import KeyedArchive
import PropertyList
import TestSupport
import Testing

/// The seed's Possessions example: `archiveRootObject:toFile:` into
/// `Documents/possessions.data` and back.
struct PossessionFileTests {
    @Test func possessionsRoundTripThroughAFileInAContainer() throws {
        let container = try ArchiveFixtures.containerDirectory()
        let path = container.path("Documents/possessions.data")
        let created = Date(timeIntervalSinceReferenceDate: 300_000_000.5)
        let items = [
            Possession(possessionName: "Red Sofa", serialNumber: "A1B2C", dateCreated: created, imageKey: "8E3F", valueInDollars: 100),
            Possession(possessionName: "Rusty Spork", serialNumber: nil, dateCreated: created, imageKey: nil, valueInDollars: -3),
        ]
        try KeyedArchiver.archive(items, toFile: path)
        // Written atomically: no temporary file is left beside it.
        let documents = try FileManager.default.contentsOfDirectory(atPath: container.path("Documents"))
        #expect(documents == ["possessions.data"])

        let back = try KeyedUnarchiver.unarchive([Possession].self, fromFile: path)
        #expect(back.map(\.possessionName) == ["Red Sofa", "Rusty Spork"])
        #expect(back.map(\.serialNumber) == ["A1B2C", nil])
        #expect(back.map(\.imageKey) == ["8E3F", nil])
        #expect(back.map(\.valueInDollars) == [100, -3])
        #expect(back.allSatisfy { $0.dateCreated == created })

        // valueInDollars is an inline integer, as encodeInt:forKey: stores it.
        let table = try KeyedArchiveTable(data: Data(contentsOf: URL(fileURLWithPath: path)))
        let stored = table.objects.filter { $0["possessionName"] != nil }
        #expect(stored.map { $0["valueInDollars"] } == [100, -3])
        #expect(table.objects.contains { $0["$classname"] == "Possession" })

        // Overwriting replaces the file whole.
        try KeyedArchiver.archive([Possession](), toFile: path)
        #expect(try KeyedUnarchiver.unarchive([Possession].self, fromFile: path).isEmpty)
    }

    @Test func fileErrorsAreTyped() throws {
        let missing = #expect(throws: KeyedArchiveError.self) {
            _ = try KeyedUnarchiver.unarchive([Possession].self, fromFile: "/nonexistent/dir/possessions.data")
        }
        #expect(missing?.code == .fileIO)
        let unwritable = #expect(throws: KeyedArchiveError.self) {
            try KeyedArchiver.archive("x", toFile: "/nonexistent/dir/possessions.data")
        }
        #expect(unwritable?.code == .fileIO)
        #expect(unwritable?.path == "/nonexistent/dir/possessions.data")
    }
}
