import Foundation
import KeyedArchive
import PropertyList
import TestSupport
import Testing

/// Any Codable value archives as Foundation collections and reads back.
struct CodableBridgeTests {
    struct Settings: Codable, Equatable {
        var name: String
        var volume: Double
        var enabled: Bool
        var launches: Int
        var lastOpened: Date
        var recent: [String]
        var limits: [String: Int]
        var avatar: Data?
    }

    let settings = Settings(name: "n", volume: 0.5, enabled: true, launches: 3, lastOpened: Date(timeIntervalSinceReferenceDate: 10),
                            recent: ["a", "b"], limits: ["x": 1], avatar: Data([1, 2]))

    @Test func codableRoundTrip() throws {
        let data = try KeyedArchiver.archivedData(encoding: settings)
        #expect(try KeyedUnarchiver.unarchive(decoding: Settings.self, from: data) == settings)
        let root = try KeyedUnarchiver(data: data).decodeRootGraph()
        #expect(root.object?.className == "NSDictionary")
    }

    @Test func codableThroughAFile() throws {
        let container = try ArchiveFixtures.containerDirectory()
        let path = container.path("Library/settings.archive")
        try KeyedArchiver.archive(encoding: settings, toFile: path, format: .xml)
        #expect(try KeyedUnarchiver.unarchive(decoding: Settings.self, fromFile: path) == settings)
    }

    @Test func wrongShapeIsATypedError() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: ["just", "strings"])
        let error = #expect(throws: KeyedArchiveError.self) { _ = try KeyedUnarchiver.unarchive(decoding: Settings.self, from: data) }
        #expect(error?.code == .typeMismatch)
    }
}
