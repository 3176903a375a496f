import Container
import Foundation
import PropertyList
import TestSupport
import Testing

@Suite struct AppBundleTests {
    let temp: TemporaryDirectory

    init() throws { temp = try TemporaryDirectory("bundle") }

    func makeBundle(binaryInfo: Bool = true) throws -> URL {
        let url = temp.url.appendingPathComponent("Notes.app")
        let fm = FileManager.default
        try fm.createDirectory(at: url.appendingPathComponent("fr.lproj"), withIntermediateDirectories: true)
        try fm.createDirectory(at: url.appendingPathComponent("en.lproj"), withIntermediateDirectories: true)
        try fm.createDirectory(at: url.appendingPathComponent("Base.lproj"), withIntermediateDirectories: true)
        try fm.createDirectory(at: url.appendingPathComponent("Sounds"), withIntermediateDirectories: true)
        let info: PropertyListValue = [
            "CFBundleIdentifier": "com.example.notes", "CFBundleVersion": "42", "CFBundleShortVersionString": "1.2",
            "CFBundleExecutable": "Notes", "CFBundleDisplayName": "Notes", "CFBundleDevelopmentRegion": "en",
            "UIRequiresPersistentWiFi": true,
        ]
        try info.encoded(as: binaryInfo ? .binary : .xml).write(to: url.appendingPathComponent("Info.plist"))
        try Data("exec".utf8).write(to: url.appendingPathComponent("Notes"))
        try Data("global".utf8).write(to: url.appendingPathComponent("icon.png"))
        try Data("fr".utf8).write(to: url.appendingPathComponent("fr.lproj/Welcome.txt"))
        try Data("en".utf8).write(to: url.appendingPathComponent("en.lproj/Welcome.txt"))
        try Data("en-only".utf8).write(to: url.appendingPathComponent("en.lproj/Help.txt"))
        try Data("base".utf8).write(to: url.appendingPathComponent("Base.lproj/Main.storyboardc"))
        try Data("ding".utf8).write(to: url.appendingPathComponent("Sounds/ding.caf"))
        try Data("\"hello\" = \"bonjour\";".utf8).write(to: url.appendingPathComponent("fr.lproj/Localizable.strings"))
        let config: PropertyListValue = ["servers": ["a", "b"], "retries": 3]
        try config.encoded(as: .xml).write(to: url.appendingPathComponent("Config.plist"))
        let list: PropertyListValue = ["x", "y"]
        try list.encoded(as: .binary).write(to: url.appendingPathComponent("List.plist"))
        return url
    }

    @Test(arguments: [true, false]) func readsInfoPlist(binary: Bool) throws {
        let bundle = try AppBundle(at: try makeBundle(binaryInfo: binary))
        #expect(bundle.info.identifier == "com.example.notes")
        #expect(bundle.info.version == "42")
        #expect(bundle.info.shortVersion == "1.2")
        #expect(bundle.info.executable == "Notes")
        #expect(bundle.info.displayName == "Notes")
        #expect(bundle.info.developmentRegion == "en")
        #expect(bundle.info.requiresPersistentWiFi)
    }

    @Test func resourcesFollowPreferredLanguagesThenDevelopmentRegionThenBase() throws {
        let bundle = try AppBundle(at: try makeBundle())
        func resolved(_ name: String, _ type: String?, _ dir: String? = nil, _ languages: [String]) -> String? {
            bundle.relativePath(forResource: name, ofType: type, inDirectory: dir, preferredLanguages: languages)
        }
        #expect(resolved("icon", "png", nil, ["fr"]) == "icon.png")
        #expect(resolved("Welcome", "txt", nil, ["fr-CA", "en"]) == "fr.lproj/Welcome.txt")
        #expect(resolved("Welcome", "txt", nil, ["de", "en"]) == "en.lproj/Welcome.txt")
        #expect(resolved("Welcome", "txt", nil, ["de"]) == "en.lproj/Welcome.txt")
        #expect(resolved("Help", "txt", nil, ["fr"]) == "en.lproj/Help.txt")
        #expect(resolved("Main", "storyboardc", nil, ["fr"]) == "Base.lproj/Main.storyboardc")
        #expect(resolved("ding", "caf", "Sounds", []) == "Sounds/ding.caf")
        #expect(resolved("ding.caf", nil, "Sounds", []) == "Sounds/ding.caf")
        #expect(resolved("", "caf", "Sounds", []) == "Sounds/ding.caf")
        #expect(resolved("missing", "txt", nil, ["fr"]) == nil)
        #expect(resolved("../../etc/passwd", nil, nil, []) == nil)
        #expect(bundle.path(forResource: "icon", ofType: "png")?.lastPathComponent == "icon.png")
        #expect(bundle.localizations == ["Base", "en", "fr"])
        #expect(bundle.localizedString(forKey: "hello", preferredLanguages: ["fr"]) == "bonjour")
        #expect(bundle.localizedString(forKey: "hello", preferredLanguages: ["en"]) == "hello")
    }

    @Test func typedPlistResources() throws {
        let bundle = try AppBundle(at: try makeBundle())
        let config = try bundle.dictionary(forResource: "Config")
        #expect(config["retries"]?.int64Value == 3)
        #expect(try bundle.array(forResource: "List").count == 2)
        #expect(throws: ContainerError.self) { try bundle.array(forResource: "Config") }
        struct Config: Decodable { var servers: [String]; var retries: Int }
        #expect(try bundle.decode(Config.self, forResource: "Config").servers == ["a", "b"])
    }

    @Test func sealDetectsModifiedAddedAndRemovedFiles() throws {
        let url = try makeBundle()
        let bundle = try AppBundle(at: url)
        #expect(try bundle.verifySeal() == .unsealed)
        try bundle.seal()
        #expect(try bundle.verifySeal() == .valid)
        try Data("evil".utf8).write(to: url.appendingPathComponent("Notes"))
        try Data("new".utf8).write(to: url.appendingPathComponent("Sounds/new.caf"))
        try FileManager.default.removeItem(at: url.appendingPathComponent("icon.png"))
        let report = try #require(try bundle.sealReport())
        #expect(report.modified == ["Notes"])
        #expect(report.added == ["Sounds/new.caf"])
        #expect(report.removed == ["icon.png"])
        #expect(try bundle.verifySeal() == .modified(["Notes", "Sounds/new.caf", "icon.png"]))
        let seal = try PropertyListValue(data: Data(contentsOf: url.appendingPathComponent("_CodeSignature/CodeResources")))
        #expect(seal["files2"]?["Info.plist"]?["hash2"]?.dataValue?.count == 32)
    }
}
