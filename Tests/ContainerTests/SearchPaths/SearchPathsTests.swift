import Container
import Foundation
import TestSupport
import Testing

@Suite struct SearchPathsTests {
    let temp: TemporaryDirectory

    init() throws { temp = try TemporaryDirectory() }

    func paths() throws -> (SearchPaths, String, String) {
        let container = try AppContainer.create(at: temp.url.appendingPathComponent("App"), bundleName: "Notes")
        let system = temp.url.appendingPathComponent("System")
        return (SearchPaths(container: container, systemRoot: system), container.root.path, system.path)
    }

    @Test func rawValuesMatchFoundation() {
        #expect(SearchPathDirectory.allCases.count == 27)
        #expect(SearchPathDirectory.applicationDirectory.rawValue == 1)
        #expect(SearchPathDirectory.libraryDirectory.rawValue == 5)
        #expect(SearchPathDirectory.documentDirectory.rawValue == 9)
        #expect(SearchPathDirectory.cachesDirectory.rawValue == 13)
        #expect(SearchPathDirectory.applicationSupportDirectory.rawValue == 14)
        #expect(SearchPathDirectory.applicationScriptsDirectory.rawValue == 23)
        #expect(SearchPathDirectory.itemReplacementDirectory.rawValue == 99)
        #expect(SearchPathDirectory.allApplicationsDirectory.rawValue == 100)
        #expect(SearchPathDirectory.allLibrariesDirectory.rawValue == 101)
        #expect(SearchPathDirectory.trashDirectory.rawValue == 102)
        #expect(SearchPathDomainMask.userDomainMask.rawValue == 1)
        #expect(SearchPathDomainMask.localDomainMask.rawValue == 2)
        #expect(SearchPathDomainMask.networkDomainMask.rawValue == 4)
        #expect(SearchPathDomainMask.systemDomainMask.rawValue == 8)
        #expect(SearchPathDomainMask.allDomainsMask.rawValue == 0xffff)
        // Foundation's own raw values on this platform agree.
        #expect(FileManager.SearchPathDirectory.trashDirectory.rawValue == SearchPathDirectory.trashDirectory.rawValue)
        #expect(FileManager.SearchPathDirectory.cachesDirectory.rawValue == SearchPathDirectory.cachesDirectory.rawValue)
    }

    @Test func userDomainResolvesIntoTheContainer() throws {
        let (paths, home, _) = try paths()
        #expect(paths.homeDirectory() == home)
        #expect(paths.temporaryDirectory() == home + "/tmp/")
        #expect(paths.directories(.documentDirectory, .userDomainMask, expandTilde: true) == [home + "/Documents"])
        #expect(paths.directories(.libraryDirectory, .userDomainMask, expandTilde: true) == [home + "/Library"])
        #expect(paths.directories(.cachesDirectory, .userDomainMask, expandTilde: true) == [home + "/Library/Caches"])
        #expect(paths.directories(.applicationSupportDirectory, .userDomainMask, expandTilde: true)
            == [home + "/Library/Application Support"])
        #expect(paths.directories(.documentDirectory, .userDomainMask, expandTilde: false) == ["~/Documents"])
        #expect(paths.url(for: .cachesDirectory)?.path == home + "/Library/Caches")
        #expect(paths.relativePath(for: .cachesDirectory) == "Library/Caches")
    }

    @Test func systemDomainsResolveIntoTheReadOnlySystemRoot() throws {
        let (paths, home, system) = try paths()
        #expect(paths.directories(.applicationDirectory, .systemDomainMask, expandTilde: true) == [system + "/Applications"])
        #expect(paths.directories(.libraryDirectory, .allDomainsMask, expandTilde: true)
            == [home + "/Library", system + "/Library", system + "/Network/Library", system + "/System/Library"])
        #expect(paths.directories(.documentDirectory, [.localDomainMask, .systemDomainMask], expandTilde: true).isEmpty)
        #expect(!paths.isWritable(system + "/Applications/x"))
        #expect(throws: ContainerError.self) { try paths.checkWritable(system + "/Applications/x") }
        #expect(paths.isWritable(home + "/Documents/x"))
        #expect(!paths.isWritable(home + "/x"))
        #expect(!paths.isWritable(home + "/Notes.app/x"))
    }

    @Test func everyDirectoryAnswersWithoutDuplicates() throws {
        let (paths, _, _) = try paths()
        for directory in SearchPathDirectory.allCases {
            let all = paths.directories(directory, .allDomainsMask, expandTilde: true)
            #expect(Set(all).count == all.count, "\(directory)")
        }
        #expect(paths.directories(.itemReplacementDirectory, .allDomainsMask, expandTilde: true).isEmpty)
        #expect(paths.directories(.trashDirectory, .allDomainsMask, expandTilde: false) == ["~/.Trash"])
    }
}
