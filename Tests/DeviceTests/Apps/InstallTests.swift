@testable import Device
import Container
import Foundation
import PropertyList
import Testing

@Suite struct InstallTests {
    @Test func installCreatesBundleAndDataContainersWithMetadata() throws {
        let fixture = try DeviceFixture()
        let app = try fixture.install()
        #expect(app.bundleID == "com.example.notes")
        #expect(app.version == "1")
        #expect(app.bundleContainer.lastPathComponent == "Notes.app")
        #expect(app.bundleContainer.path.contains("/Containers/Bundle/Application/"))
        #expect(app.dataContainerURL.path.contains("/Containers/Data/Application/"))
        for directory in ["Documents", "Library/Preferences", "Library/Caches", "Library/Application Support", "tmp"] {
            var isDirectory: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: app.dataContainerURL.appendingPathComponent(directory).path,
                                                   isDirectory: &isDirectory) && isDirectory.boolValue, "\(directory)")
        }
        #expect(ContainerMetadata.identifier(in: app.dataContainerURL) == "com.example.notes")
        #expect(ContainerMetadata.identifier(in: app.bundleContainer.deletingLastPathComponent()) == "com.example.notes")
        let metadata = try PropertyListValue(data: Data(contentsOf: app.dataContainerURL.appendingPathComponent(ContainerMetadata.fileName)))
        #expect(metadata["MCMMetadataContentClass"]?.integerValue == 2)
        #expect(metadata["MCMMetadataUUID"]?.stringValue == app.dataContainerURL.lastPathComponent)
        #expect(try fixture.device.installedBundleIDs() == ["com.example.notes"])
        #expect(try fixture.device.app("com.example.notes").dataContainerURL == app.dataContainerURL)
    }

    @Test func anUnsealedBundleIsSealedInItsContainerAndTheSourceIsUntouched() throws {
        let fixture = try DeviceFixture()
        let source = try fixture.bundle(files: ["en.lproj/Main.strings": "\"a\" = \"b\";"])
        let app = try fixture.device.install(bundleAt: source)
        #expect(try app.bundle.verifySeal() == .valid)
        #expect(!FileManager.default.fileExists(atPath: source.appendingPathComponent(AppBundle.sealPath).path))
    }

    @Test func aSealedBundleThatStillMatchesIsAccepted() throws {
        let fixture = try DeviceFixture()
        let source = try fixture.bundle()
        try AppBundle(at: source).seal()
        let app = try fixture.device.install(bundleAt: source)
        #expect(try app.bundle.verifySeal() == .valid)
    }

    @Test func aBundleWhoseSealDoesNotMatchIsRefusedAndLeavesNothing() throws {
        let fixture = try DeviceFixture()
        let source = try fixture.bundle(files: ["data.txt": "original"])
        try AppBundle(at: source).seal()
        try Data("tampered".utf8).write(to: source.appendingPathComponent("data.txt"))
        let error = try #require(throws: DeviceError.self) { try fixture.device.install(bundleAt: source) }
        #expect(error.code == .sealMismatch)
        #expect(error.message.contains("data.txt"))
        #expect(fixture.containerDirectories("Bundle/Application").isEmpty)
        #expect(fixture.containerDirectories("Data/Application").isEmpty)
        #expect(try fixture.device.installedBundleIDs().isEmpty)
    }

    @Test func bundlesWithoutTheRequiredKeysOrExecutableAreRefused() throws {
        let fixture = try DeviceFixture()
        let folder = fixture.bundles.appendingPathComponent("bad", isDirectory: true)
        let noExecutableKey = try TestBundle.make(in: folder.appendingPathComponent("a"), executable: nil)
        let missingExecutable = try TestBundle.make(in: folder.appendingPathComponent("b"))
        try FileManager.default.removeItem(at: missingExecutable.appendingPathComponent("Notes"))
        let badIdentifier = try TestBundle.make(in: folder.appendingPathComponent("c"), identifier: "com..bad id")
        let noInfo = folder.appendingPathComponent("d/Empty.app")
        try FileManager.default.createDirectory(at: noInfo, withIntermediateDirectories: true)
        let notApp = try TestBundle.make(in: folder.appendingPathComponent("e"))
        let renamed = notApp.deletingLastPathComponent().appendingPathComponent("Notes.bundle")
        try FileManager.default.moveItem(at: notApp, to: renamed)
        for source in [noExecutableKey, missingExecutable, badIdentifier, noInfo, renamed] {
            let error = try #require(throws: DeviceError.self) { try fixture.device.install(bundleAt: source) }
            #expect(error.code == .invalidBundle, "\(source.path): \(error)")
        }
        #expect(fixture.containerDirectories("Bundle/Application").isEmpty)
    }

    @Test func installingTwiceIsRefused() throws {
        let fixture = try DeviceFixture()
        _ = try fixture.install()
        let error = try #require(throws: DeviceError.self) { try fixture.install(version: "2") }
        #expect(error.code == .alreadyInstalled)
    }

    @Test func appGroupContainersAreSharedAndGoWithTheirLastApp() throws {
        let fixture = try DeviceFixture()
        let groups: PropertyListValue = ["com.apple.security.application-groups": ["group.com.example.shared"]]
        let first = try fixture.device.install(bundleAt: try fixture.bundle(identifier: "com.example.one", entitlements: groups))
        let second = try fixture.device.install(bundleAt: try fixture.bundle(identifier: "com.example.two", entitlements: groups))
        let shared = try #require(first.groupContainers["group.com.example.shared"])
        #expect(second.groupContainers["group.com.example.shared"] == shared)
        #expect(try fixture.device.containerURL("com.example.one", .groups) == shared)
        #expect(ContainerMetadata.identifier(in: shared) == "group.com.example.shared")
        try fixture.device.uninstall("com.example.one")
        #expect(FileManager.default.fileExists(atPath: shared.path))
        try fixture.device.uninstall("com.example.two")
        #expect(!FileManager.default.fileExists(atPath: shared.path))
        #expect(fixture.containerDirectories("Shared/AppGroup").isEmpty)
    }

    @Test func containerURLsNameEveryKind() throws {
        let fixture = try DeviceFixture()
        let app = try fixture.install()
        let device = fixture.device
        #expect(try device.containerURL(app.bundleID, .app) == app.bundleContainer)
        #expect(try device.containerURL(app.bundleID, .data) == app.dataContainerURL)
        #expect(try device.containerURL(app.bundleID, .documents).path.hasSuffix("/Documents"))
        #expect(try device.containerURL(app.bundleID, .caches).path.hasSuffix("/Library/Caches"))
        #expect(try device.containerURL(app.bundleID, .tmp).path.hasSuffix("/tmp"))
        #expect(throws: DeviceError.self) { try device.containerURL(app.bundleID, .groups) }
        let error = try #require(throws: DeviceError.self) { try device.containerURL("com.example.none", .data) }
        #expect(error.code == .notInstalled)
    }
}
