@testable import Device
import Container
import Foundation
import Keychain
import Preferences
import PropertyList
import Testing

@Suite struct UpdateTests {
    @Test func updateMovesDocumentsAndLibraryWithCachesButNotTmp() throws {
        let fixture = try DeviceFixture()
        let old = try fixture.install()
        let container = try old.dataContainer()
        try container.writeAtomically(Data("note".utf8), to: "Documents/note.txt")
        try container.createDirectory("Documents/Folder")
        try container.writeAtomically(Data("nested".utf8), to: "Documents/Folder/deep.txt")
        try container.writeAtomically(Data("support".utf8), to: "Library/Application Support/db.sqlite")
        try container.writeAtomically(Data("cache".utf8), to: "Library/Caches/thumb.png")
        try container.writeAtomically(Data("temp".utf8), to: "tmp/scratch")
        let prefs = try old.preferences()
        prefs.set("dark", forKey: "Theme")
        try prefs.synchronize()

        let new = try fixture.device.update(bundleAt: try fixture.bundle(version: "2"))
        #expect(new.version == "2")
        #expect(new.dataContainerURL != old.dataContainerURL)
        #expect(new.bundleContainer != old.bundleContainer)
        let moved = try new.dataContainer()
        #expect(try moved.read("Documents/note.txt") == Data("note".utf8))
        #expect(try moved.read("Documents/Folder/deep.txt") == Data("nested".utf8))
        #expect(try moved.read("Library/Application Support/db.sqlite") == Data("support".utf8))
        // The whole of Library is kept, Caches included (StorageRules: keptAcrossUpdate).
        #expect(try moved.read("Library/Caches/thumb.png") == Data("cache".utf8))
        #expect(!moved.fileExists("tmp/scratch"))
        #expect(moved.fileExists("Library/Caches") && moved.fileExists("tmp"))
        let reread = try Preferences(domainFile: new.dataContainerURL.appendingPathComponent("Library/Preferences/com.example.notes.plist"),
                                     configuration: .init(sharesDomainsInProcess: false))
        #expect(reread.string(forKey: "Theme") == "dark")
        // The old containers are gone; one of each remains.
        #expect(!FileManager.default.fileExists(atPath: old.dataContainerURL.path))
        #expect(!FileManager.default.fileExists(atPath: old.bundleContainer.path))
        #expect(fixture.containerDirectories("Data/Application") == [new.dataContainerURL.lastPathComponent])
        #expect(fixture.containerDirectories("Bundle/Application") == [new.bundleContainer.deletingLastPathComponent().lastPathComponent])
        #expect(!FileManager.default.fileExists(atPath: fixture.device.root.appendingPathComponent("journal.plist").path))
        #expect(ContainerMetadata.identifier(in: new.dataContainerURL) == "com.example.notes")
    }

    @Test func updateLeavesTheKeychainUntouched() throws {
        let fixture = try DeviceFixture()
        let old = try fixture.install()
        try old.keychainClient(on: fixture.device).add(.genericPassword, KeychainAttributes(service: "api", account: "me"),
                                                       data: Data("secret".utf8))
        let new = try fixture.device.update(bundleAt: try fixture.bundle(version: "2"))
        let item = try new.keychainClient(on: fixture.device)
            .item(KeychainQuery(.genericPassword, KeychainAttributes(service: "api", account: "me"), returning: .data))
        #expect(item.data == Data("secret".utf8))
    }

    @Test func updateOfAnAppThatIsNotInstalledIsRefused() throws {
        let fixture = try DeviceFixture()
        let error = try #require(throws: DeviceError.self) { try fixture.device.update(bundleAt: try fixture.bundle()) }
        #expect(error.code == .notInstalled)
    }

    @Test func updateKeepsTheFirstInstallDate() throws {
        let fixture = try DeviceFixture()
        let old = try fixture.install()
        let new = try fixture.device.update(bundleAt: try fixture.bundle(version: "2"))
        #expect(new.installed == old.installed)
    }

    @Test func aRefusedUpdateLeavesTheOldVersion() throws {
        let fixture = try DeviceFixture()
        let old = try fixture.install()
        try old.dataContainer().writeAtomically(Data("keep".utf8), to: "Documents/keep.txt")
        let source = try fixture.bundle(version: "2", files: ["a.txt": "a"])
        try AppBundle(at: source).seal()
        try Data("b".utf8).write(to: source.appendingPathComponent("a.txt"))
        #expect(throws: DeviceError.self) { try fixture.device.update(bundleAt: source) }
        let current = try fixture.device.app(old.bundleID)
        #expect(current.version == "1")
        #expect(try current.dataContainer().read("Documents/keep.txt") == Data("keep".utf8))
        #expect(fixture.containerDirectories("Data/Application").count == 1)
    }
}
