import Foundation
import OrderedCollections
import Preferences
import PropertyList
import Testing

/// Two stores on one file, each with its own memory (as two processes):
/// each flush merges only its own changed keys into the file.
@Suite struct MergeTests {
    @Test func neitherStoreLosesTheOthersKeys() throws {
        let fixture = try PreferencesFixture()
        let first = try fixture.open()
        let second = try fixture.open()
        first.set("1", forKey: "first")
        second.set("2", forKey: "second")
        try first.synchronize()
        try second.synchronize()
        #expect(try fixture.fileContents() == ["first": "1", "second": "2"])
        try first.synchronize()
        #expect(first.string(forKey: "second") == "2")
    }

    @Test func aRemovalIsMergedAsARemoval() throws {
        let fixture = try PreferencesFixture()
        try fixture.writeFile(["a": 1, "b": 2], to: fixture.domainFile)
        let first = try fixture.open()
        let second = try fixture.open()
        first.removeObject(forKey: "a")
        second.set(3, forKey: "c")
        try second.synchronize()
        try first.synchronize()
        #expect(try fixture.fileContents() == ["b": 2, "c": 3])
    }

    @Test func theLastWriterOfAKeyWins() throws {
        let fixture = try PreferencesFixture()
        let first = try fixture.open()
        let second = try fixture.open()
        first.set("first", forKey: "k")
        second.set("second", forKey: "k")
        try first.synchronize()
        try second.synchronize()
        #expect(try fixture.fileContents() == ["k": "second"])
        try first.synchronize()
        #expect(first.string(forKey: "k") == "second")
    }

    @Test func unchangedKeysFollowTheFileAfterAReload() throws {
        let fixture = try PreferencesFixture()
        try fixture.writeFile(["a": 1], to: fixture.domainFile)
        let reader = try fixture.open()
        let writer = try fixture.open()
        writer.set(2, forKey: "a")
        try writer.synchronize()
        #expect(reader.integer(forKey: "a") == 1)
        try reader.synchronize()
        #expect(reader.integer(forKey: "a") == 2)
    }

    @Test func setPersistentDomainReplacesTheKeysItKnows() throws {
        let fixture = try PreferencesFixture()
        try fixture.writeFile(["old": 1], to: fixture.domainFile)
        let prefs = try fixture.open()
        prefs.setPersistentDomain(["new": 2])
        try prefs.synchronize()
        #expect(try fixture.fileContents() == ["new": 2])
        prefs.removePersistentDomain()
        try prefs.synchronize()
        #expect(try fixture.fileContents() == [:])
    }
}
