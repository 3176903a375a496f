import Container
import Foundation
import SystemPackage
import TestSupport
import Testing

/// The typed `FilePath` accessors give the same directories as the strings and URLs.
@Suite struct SearchPathsFilePathTests {
    let temp: TemporaryDirectory

    init() throws { temp = try TemporaryDirectory() }

    @Test func filePathsMatchTheStringPaths() throws {
        let container = try AppContainer.create(at: temp.url.appendingPathComponent("App"), bundleName: "Notes")
        let system = temp.url.appendingPathComponent("System")
        let paths = SearchPaths(container: container, systemRoot: system)
        let home = FilePath(container.root.path)
        #expect(paths.homeFilePath() == home)
        #expect(paths.temporaryFilePath() == home.appending("tmp"))
        #expect(paths.filePath(for: .cachesDirectory) == home.appending("Library").appending("Caches"))
        #expect(paths.filePath(for: .applicationDirectory, in: .systemDomainMask) == FilePath(system.path).appending("Applications"))
        #expect(paths.filePath(for: .documentDirectory, in: .systemDomainMask) == nil)
        #expect(paths.filePaths(for: .libraryDirectory, in: .allDomainsMask).map(\.string)
            == paths.directories(.libraryDirectory, .allDomainsMask, expandTilde: true))
        #expect(container.filePath(for: .applicationSupport) == home.appending("Library").appending("Application Support"))
        #expect(container.filePath(for: .home) == home)
    }
}
