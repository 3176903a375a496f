import Foundation
import Preferences
import PropertyList
import Testing

/// Arguments, then the app's domain, then the global domain, then registered defaults.
@Suite struct SearchOrderTests {
    @Test func eachDomainShadowsTheOnesBelowIt() throws {
        let fixture = try PreferencesFixture()
        try fixture.writeFile(["Key": "global", "GlobalOnly": "global"], to: fixture.globalFile)
        let prefs = try fixture.open(arguments: ["/path/to/App", "-Key", "argument"])
        prefs.register(defaults: ["Key": "registered", "RegisteredOnly": "registered", "GlobalOnly": "registered"])
        prefs.set("app", forKey: "Key")

        #expect(prefs.string(forKey: "Key") == "argument")
        #expect(prefs.string(forKey: "GlobalOnly") == "global")
        #expect(prefs.string(forKey: "RegisteredOnly") == "registered")
        #expect(prefs.object(forKey: "Missing") == nil)
    }

    @Test func removingAKeyUncoversTheLowerDomains() throws {
        let fixture = try PreferencesFixture()
        try fixture.writeFile(["Theme": "global"], to: fixture.globalFile)
        let prefs = try fixture.open()
        prefs.register(defaults: ["Theme": "registered", "Size": 12])
        prefs.set("dark", forKey: "Theme")
        #expect(prefs.string(forKey: "Theme") == "dark")
        prefs.removeObject(forKey: "Theme")
        #expect(prefs.string(forKey: "Theme") == "global")
        #expect(prefs.integer(forKey: "Size") == 12)
    }

    @Test func argumentsOverrideButAreNeverWritten() throws {
        let fixture = try PreferencesFixture()
        let prefs = try fixture.open(arguments: ["-Debug", "YES"])
        prefs.set(false, forKey: "Debug")
        #expect(prefs.bool(forKey: "Debug"))
        try prefs.synchronize()
        #expect(try fixture.fileContents() == ["Debug": false])
    }

    @Test func registeredDefaultsAreNeverWritten() throws {
        let fixture = try PreferencesFixture()
        let prefs = try fixture.open()
        prefs.register(defaults: ["A": 1])
        prefs.set(2, forKey: "B")
        try prefs.synchronize()
        #expect(try fixture.fileContents() == ["B": 2])
    }

    @Test func aLaterRegistrationReplacesAnEarlierOne() throws {
        let prefs = try PreferencesFixture().open()
        prefs.register(defaults: ["A": 1, "B": 1])
        prefs.register(defaults: ["A": 2])
        #expect(prefs.integer(forKey: "A") == 2)
        #expect(prefs.integer(forKey: "B") == 1)
    }

    @Test func dictionaryRepresentationFollowsTheSearchOrder() throws {
        let fixture = try PreferencesFixture()
        try fixture.writeFile(["G": "global", "Shared": "global"], to: fixture.globalFile)
        let prefs = try fixture.open(arguments: ["-Arg", "1"])
        prefs.register(defaults: ["R": "registered", "Shared": "registered"])
        prefs.set("app", forKey: "Shared")
        #expect(prefs.dictionaryRepresentation() == [
            "Arg": "1", "G": "global", "R": "registered", "Shared": "app",
        ])
    }

    @Test func theGlobalDomainIsReadOnlyForTheApp() throws {
        let fixture = try PreferencesFixture()
        try fixture.writeFile(["AppleLanguages": ["en"]], to: fixture.globalFile)
        let prefs = try fixture.open()
        prefs.set(["fr"], forKey: "AppleLanguages")
        try prefs.synchronize()
        #expect(try fixture.fileContents(fixture.globalFile) == ["AppleLanguages": ["en"]])
        #expect(prefs.stringArray(forKey: "AppleLanguages") == ["fr"])
    }
}
