import Container
import Foundation
import Preferences
import PropertyList
import TestSupport
import Testing

/// An app's domain goes through its container's file API: confined,
/// counted, and named by the bundle's identifier.
@Suite struct ContainerStorageTests {
    @Test func writesGoThroughTheContainerAndAreCounted() throws {
        let fixture = try PreferencesFixture()
        let prefs = try fixture.open()
        let before = fixture.container.bytesWritten
        for index in 0..<3 {
            prefs.set(index, forKey: "k\(index)")
            try prefs.synchronize()
        }
        let written = fixture.container.bytesWritten - before
        #expect(prefs.statistics.fileWrites == 3)
        #expect(written == prefs.statistics.bytesWritten)
        // Each flush writes the new binary file and nothing more; the file
        // only grew, so no flush wrote more than its final size.
        let size = try fixture.container.attributes("Library/Preferences/com.example.app.plist").size
        #expect(written > 2 * size && written <= 3 * size)
        #expect(try fixture.container.contentsOfDirectory("Library/Preferences")
            == [".com.example.app.plist.lock", "com.example.app.plist"])
    }

    @Test func theDomainIsTheBundleIdentifier() throws {
        let temp = try TemporaryDirectory()
        let container = try AppContainer.create(at: temp.url, bundleName: "Notes")
        let info: PropertyListValue = ["CFBundleIdentifier": "com.example.notes", "CFBundleVersion": "1",
                                       "CFBundleExecutable": "Notes"]
        try info.encoded(as: .xml).write(to: temp.file("Notes.app/Info.plist"))
        let prefs = try Preferences(container: container, configuration: .init(coalescingDelay: nil))
        prefs.set(true, forKey: "TermsAccepted")
        try prefs.synchronize()
        #expect(prefs.domainPath == temp.url.standardizedFileURL.path + "/Library/Preferences/com.example.notes.plist")
        #expect(try container.read("Library/Preferences/com.example.notes.plist").starts(with: Data("bplist00".utf8)))
        // Without a bundle there is nothing to name the domain.
        let bare = try AppContainer.create(at: temp.file("Bare"))
        #expect(throws: PreferencesError.self) { try Preferences(container: bare) }
    }

    @Test func aPreferencesDirectoryLinkedOutsideIsRefused() throws {
        let fixture = try PreferencesFixture()
        let outside = try TemporaryDirectory()
        try FileManager.default.removeItem(at: fixture.preferencesDirectory)
        try FileManager.default.createSymbolicLink(at: fixture.preferencesDirectory, withDestinationURL: outside.url)
        let prefs = try fixture.open()
        prefs.set("secret", forKey: "token")
        #expect(throws: PreferencesError.self) { try prefs.synchronize() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.url.path).isEmpty)
    }

    @Test func aRemovedPreferencesDirectoryIsRecreated() throws {
        let fixture = try PreferencesFixture()
        try fixture.container.removeItem("Library/Preferences")
        let prefs = try fixture.open()
        prefs.set(1, forKey: "one")
        try prefs.synchronize()
        #expect(try fixture.fileContents() == ["one": 1])
    }

    @Test func suitesLiveInTheGroupContainer() throws {
        let temp = try TemporaryDirectory()
        let group = try AppContainer.create(at: temp.url)
        let app = try Preferences(suiteName: "group.com.example", groupContainer: group,
                                  configuration: .init(coalescingDelay: nil, sharesDomainsInProcess: false))
        app.set("shared", forKey: "k")
        try app.synchronize()
        let widget = try Preferences(suiteName: "group.com.example", groupContainer: group,
                                     configuration: .init(coalescingDelay: nil, sharesDomainsInProcess: false))
        #expect(widget.string(forKey: "k") == "shared")
        #expect(group.fileExists("Library/Preferences/group.com.example.plist"))
        #expect(throws: PreferencesError.self) { try Preferences(suiteName: "../x", groupContainer: group) }
    }
}
