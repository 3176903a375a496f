import Container
import FileSystem
import Foundation
import Preferences
import PropertyList
import Testing

/// Writers killed between writing a domain's new file and renaming it
/// leave `.sb-*.tmp` files beside it. Opening the domain sweeps those old
/// enough (`FileDescriptor.staleTemporaryAge`, 60 s) that no live writer
/// can own them; a younger one may be a writer at work and stays.
@Suite struct LeftoverTemporaryTests {
    /// A dead writer's leftover (an hour old) and a live writer's (just made).
    static func plantLeftovers(in directory: URL) throws {
        let dead = directory.appendingPathComponent(".sb-deadwriter.tmp")
        let live = directory.appendingPathComponent(".sb-livewriter.tmp")
        try Data("half a plist".utf8).write(to: dead)
        try Data("being written".utf8).write(to: live)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: dead.path)
    }

    @Test func openingAContainerDomainSweepsDeadWritersTemporaries() throws {
        let fixture = try PreferencesFixture()
        try Self.plantLeftovers(in: fixture.preferencesDirectory)
        let prefs = try fixture.open()
        prefs.set(1, forKey: "one")
        try prefs.synchronize()
        let names = try fixture.container.contentsOfDirectory("Library/Preferences")
        #expect(!names.contains(".sb-deadwriter.tmp"))
        #expect(names.contains(".sb-livewriter.tmp"))
        #expect(names.contains("com.example.app.plist"))
    }

    @Test func openingADomainFileSweepsDeadWritersTemporaries() throws {
        let fixture = try PreferencesFixture()
        try Self.plantLeftovers(in: fixture.preferencesDirectory)
        let prefs = try Preferences(domainFile: fixture.domainFile, configuration: .init(coalescingDelay: nil))
        prefs.set("x", forKey: "k")
        try prefs.synchronize()
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.preferencesDirectory.path)
        #expect(!names.contains(".sb-deadwriter.tmp"))
        #expect(names.contains(".sb-livewriter.tmp"))
        // The path form writes a private file and leaves no temporary of its own.
        #expect(names.filter { $0.hasSuffix(".tmp") } == [".sb-livewriter.tmp"])
        #expect(try fixture.fileContents()?["k"] == "x")
    }

    @Test func theAppAndAToolByPathTakeTheSameLockFile() throws {
        let fixture = try PreferencesFixture()
        let byPath = try Preferences(domainFile: fixture.domainFile, configuration: .init(coalescingDelay: nil))
        byPath.set(1, forKey: "tool")
        try byPath.synchronize()
        let app = try fixture.open()
        app.set(2, forKey: "app")
        try app.synchronize()
        let locks = try fixture.container.contentsOfDirectory("Library/Preferences").filter { $0.hasSuffix(".lock") }
        #expect(locks == [LockFile.lockName(for: "com.example.app.plist")])
    }
}
