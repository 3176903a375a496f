import Container
import Foundation
import TestSupport
import Testing

@Suite struct LayoutTests {
    @Test func createMakesTheStandardLayoutAndIsIdempotent() throws {
        let temp = try TemporaryDirectory()
        let root = temp.url.appendingPathComponent("App")
        let container = try AppContainer.create(at: root, bundleName: "Notes")
        for directory in ContainerDirectory.allCases where directory != .home && directory != .bundle {
            var isDirectory: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: container.url(for: directory).path, isDirectory: &isDirectory))
            #expect(isDirectory.boolValue, "\(directory)")
        }
        #expect(container.bundleURL?.lastPathComponent == "Notes.app")
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("Notes.app").path))
        try container.writeAtomically(Data("x".utf8), to: "Documents/a.txt")
        let again = try AppContainer.create(at: root, bundleName: "Notes")
        #expect(try again.read("Documents/a.txt") == Data("x".utf8))
    }

    @Test func openingAnExistingContainerFindsTheBundleAndFailsWhenMissing() throws {
        let temp = try TemporaryDirectory()
        let root = temp.url.appendingPathComponent("App")
        _ = try AppContainer.create(at: root, bundleName: "Notes")
        let opened = try AppContainer(existingAt: root)
        #expect(opened.bundleURL?.lastPathComponent == "Notes.app")
        #expect(opened.url(for: .preferences).path.hasSuffix("Library/Preferences"))
        #expect(throws: ContainerError.self) { try AppContainer(existingAt: temp.url.appendingPathComponent("missing")) }
        do {
            _ = try AppContainer(existingAt: temp.url.appendingPathComponent("missing"))
        } catch let error as ContainerError {
            #expect(error.code == .notFound)
        }
    }

    @Test func externalBundleIsKeptOutOfTheContainer() throws {
        let temp = try TemporaryDirectory()
        let bundle = temp.url.appendingPathComponent("Bundle/Notes.app")
        let container = try AppContainer.create(at: temp.url.appendingPathComponent("Data"), bundleURL: bundle)
        #expect(container.url(for: .bundle) == bundle)
        #expect(try container.contentsOfDirectory("") == ["Documents", "Library", "tmp"])
    }

    @Test func relativePathsOfTheDirectories() {
        #expect(ContainerDirectory.home.relativePath == "")
        #expect(ContainerDirectory.documents.relativePath == "Documents")
        #expect(ContainerDirectory.library.relativePath == "Library")
        #expect(ContainerDirectory.preferences.relativePath == "Library/Preferences")
        #expect(ContainerDirectory.caches.relativePath == "Library/Caches")
        #expect(ContainerDirectory.applicationSupport.relativePath == "Library/Application Support")
        #expect(ContainerDirectory.tmp.relativePath == "tmp")
    }
}
