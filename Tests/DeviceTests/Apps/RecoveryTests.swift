@testable import Device
import Foundation
import TestSupport
import Testing

/// Interrupted operations, replayed by hand: the state a crash leaves at
/// each point, then `Device.open`.
@Suite struct RecoveryTests {
    @Test func stagedContainersWithoutACommitAreRemovedOnOpen() throws {
        let fixture = try DeviceFixture()
        let app = try fixture.install()
        // An install killed after staging: containers the registry does not name.
        let staged = try fixture.device.stage(try fixture.bundle(identifier: "com.example.other"),
                                              validated: try BundleValidation.check(try fixture.bundle(identifier: "com.example.other")))
        #expect(fixture.containerDirectories("Data/Application").count == 2)
        let reopened = try Device.open(at: fixture.device.root)
        #expect(try reopened.installedBundleIDs() == [app.bundleID])
        #expect(fixture.containerDirectories("Data/Application") == [app.dataContainerURL.lastPathComponent])
        #expect(!fixture.containerDirectories("Bundle/Application").contains(staged.bundleUUID))
    }

    @Test func aCommittedUpdateIsFinishedOnOpenWhereverItStopped() throws {
        for movedBeforeCrash in [0, 1, 3] {
            let fixture = try DeviceFixture()
            let old = try fixture.install()
            let container = try old.dataContainer()
            try container.writeAtomically(Data("doc".utf8), to: "Documents/a.txt")
            try container.writeAtomically(Data("pref".utf8), to: "Library/Preferences/com.example.notes.plist")
            try container.writeAtomically(Data("cache".utf8), to: "Library/Caches/c")
            // Commit an update by hand, then move part of the data as a killed
            // updater would have.
            var registry = try fixture.device.readRegistry()
            let source = try fixture.bundle(version: "2")
            let new = try fixture.device.stage(source, validated: try BundleValidation.check(source))
            registry.apps[old.bundleID] = new
            let oldRecord = try #require(try fixture.device.readRegistry().apps[old.bundleID])
            try RecordFile.write(DeviceJournal(operation: .update, bundleID: old.bundleID, old: oldRecord, new: new, registry: registry),
                                 to: fixture.device.layout.journal)
            let newData = fixture.device.layout.dataContainer(new.dataUUID)
            let moves = [("Documents", "Documents"), ("Library/Preferences", "Library/Preferences"),
                         ("Library/Application Support", "Library/Application Support")]
            for (from, to) in moves.prefix(movedBeforeCrash) {
                let target = newData.appendingPathComponent(to)
                try FileManager.default.removeItem(at: target)
                try FileManager.default.moveItem(at: old.dataContainerURL.appendingPathComponent(from), to: target)
            }
            let reopened = try Device.open(at: fixture.device.root)
            let app = try reopened.app(old.bundleID)
            #expect(app.version == "2", "after \(movedBeforeCrash) moves")
            #expect(try app.dataContainer().read("Documents/a.txt") == Data("doc".utf8))
            #expect(try app.dataContainer().read("Library/Preferences/com.example.notes.plist") == Data("pref".utf8))
            // Caches moves too (StorageRules keeps it across an update).
            #expect(try app.dataContainer().fileExists("Library/Caches/c"))
            #expect(fixture.containerDirectories("Data/Application") == [new.dataUUID])
            #expect(!FileManager.default.fileExists(atPath: fixture.device.layout.journal.path))
        }
    }

    @Test func aCommittedUninstallIsFinishedOnOpen() throws {
        let fixture = try DeviceFixture()
        let app = try fixture.install()
        var registry = try fixture.device.readRegistry()
        let record = try #require(registry.apps[app.bundleID])
        registry.apps[app.bundleID] = nil
        try RecordFile.write(DeviceJournal(operation: .uninstall, bundleID: app.bundleID, old: record, new: nil, registry: registry,
                                           keychainPolicy: .retain), to: fixture.device.layout.journal)
        let reopened = try Device.open(at: fixture.device.root)
        #expect(try reopened.installedBundleIDs().isEmpty)
        #expect(fixture.containerDirectories("Data/Application").isEmpty)
        #expect(fixture.containerDirectories("Bundle/Application").isEmpty)
    }

    @Test func openingADirectoryThatIsNotADeviceIsATypedError() throws {
        let temp = try TemporaryDirectory()
        let error = try #require(throws: DeviceError.self) { try Device.open(at: temp.url) }
        #expect(error.code == .notADevice)
        let exists = try #require(throws: DeviceError.self) {
            _ = try Device.create(at: temp.url, name: "a")
            _ = try Device.create(at: temp.url, name: "b")
        }
        #expect(exists.code == .deviceExists)
    }
}
