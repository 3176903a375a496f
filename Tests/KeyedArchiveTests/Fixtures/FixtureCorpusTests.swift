import Foundation
import KeyedArchive
import PropertyList
import Testing

/// Every keyed archive in the shared corpus, read generically.
struct FixtureCorpusTests {
    @Test func corpusIsPresent() {
        #expect(ArchiveFixtures.names.count >= 67)
        #expect(ArchiveFixtures.appleWritten.count >= 50)
    }

    @Test(arguments: ArchiveFixtures.names)
    func everyFixtureDecodes(name: String) throws {
        let unarchiver = try KeyedUnarchiver(data: ArchiveFixtures.data(name))
        let top = try unarchiver.decodeTopLevelGraph()
        #expect(!top.isEmpty)
    }

    @Test(arguments: ArchiveFixtures.names)
    func everyFixtureReadsAsPropertyListOrFailsCleanly(name: String) throws {
        // The Codable bridge's plain view: must never trap, whatever the classes.
        do {
            _ = try KeyedUnarchiver.unarchive(PropertyListValue.self, from: ArchiveFixtures.data(name))
        } catch is KeyedArchiveError {
        }
    }

    @Test(arguments: ArchiveFixtures.names)
    func everyFixtureReencodesToTheSameGraph(name: String) throws {
        let root = try KeyedUnarchiver(data: ArchiveFixtures.data(name)).decodeTopLevelGraph()
        let archiver = KeyedArchiver()
        for (key, value) in root {
            if case .object(let object) = value { try archiver.encode(object, forKey: key) }
        }
        let again = try KeyedUnarchiver(data: archiver.encodedData()).decodeTopLevelGraph()
        #expect(GraphText.render(again) == GraphText.render(root.filter { if case .object = $0.value { true } else { false } }))
    }
}
