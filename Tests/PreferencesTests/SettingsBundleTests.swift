import Foundation
import Preferences
import PropertyList
import Testing

/// The registration domain offers a Settings.bundle's `DefaultValue`s.
@Suite struct SettingsBundleTests {
    private func makeBundle(in fixture: PreferencesFixture) throws -> URL {
        let bundle = fixture.directory.url.appendingPathComponent("App.app", isDirectory: true)
        let settings = bundle.appendingPathComponent("Settings.bundle")
        try fixture.writeFile([
            "StringsTable": "Root",
            "PreferenceSpecifiers": [
                ["Type": "PSGroupSpecifier", "Title": "General"],
                ["Type": "PSToggleSwitchSpecifier", "Key": "sounds", "DefaultValue": true],
                ["Type": "PSTextFieldSpecifier", "Key": "nickname", "DefaultValue": "Guest"],
                ["Type": "PSMultiValueSpecifier", "Key": "speed", "DefaultValue": 2, "Values": [1, 2, 3]],
                ["Type": "PSTextFieldSpecifier", "Key": "noDefault"],
                ["Type": "PSChildPaneSpecifier", "Title": "More", "File": "Advanced"],
            ],
        ], to: settings.appendingPathComponent("Root.plist"), format: .xml)
        try fixture.writeFile([
            "PreferenceSpecifiers": [
                ["Type": "PSSliderSpecifier", "Key": "volume", "DefaultValue": 0.5],
                ["Type": "PSChildPaneSpecifier", "File": "Root"],
            ],
        ], to: settings.appendingPathComponent("Advanced.plist"))
        return bundle
    }

    @Test func defaultValuesOfEveryPaneAreRegistered() throws {
        let fixture = try PreferencesFixture()
        let bundle = try makeBundle(in: fixture)
        #expect(try SettingsBundleDefaults.values(inBundle: bundle) == [
            "sounds": true, "nickname": "Guest", "speed": 2, "volume": 0.5,
        ])
        let prefs = try fixture.open()
        try prefs.registerSettingsBundleDefaults(inBundle: bundle)
        #expect(prefs.bool(forKey: "sounds"))
        prefs.set(false, forKey: "sounds")
        #expect(!prefs.bool(forKey: "sounds"))
        #expect(prefs.double(forKey: "volume") == 0.5)
    }

    @Test func anAppWithoutSettingsHasNoDefaults() throws {
        let fixture = try PreferencesFixture()
        #expect(try SettingsBundleDefaults.values(inBundle: fixture.directory.url).isEmpty)
    }

    @Test func aMalformedPaneIsATypedError() throws {
        let fixture = try PreferencesFixture()
        let settings = fixture.directory.url.appendingPathComponent("Settings.bundle")
        try fixture.writeFile(["Title": "no specifiers"], to: settings.appendingPathComponent("Root.plist"))
        #expect { try SettingsBundleDefaults.values(inBundle: fixture.directory.url) } throws: { error in
            (error as? PreferencesError)?.code == .corruptFile
        }
    }
}
