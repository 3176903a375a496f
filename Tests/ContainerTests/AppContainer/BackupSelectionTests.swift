import Container
import FileSystem
import Foundation
import SystemPackage
import TestSupport
import Testing

/// `backupIncludes`: the rules table and the do-not-back-up flag, read
/// through the container's API, decide what a backup takes.
@Suite struct BackupSelectionTests {
    let temp: TemporaryDirectory

    init() throws { temp = try TemporaryDirectory() }

    @Test(arguments: [ExclusionStorage.automatic, .record])
    func backupTakesBackedUpDirectoriesAndSkipsFlaggedItems(storage: ExclusionStorage) throws {
        let container = try AppContainer.create(at: temp.url.appendingPathComponent("App"), bundleName: "Notes",
                                                options: ContainerOptions(exclusionStorage: storage))
        for path in ["Documents/a.txt", "Library/Preferences/com.example.notes.plist", "Library/Caches/c.bin",
                     "tmp/t", "Library/Application Support/db", "Documents/big.mov"] {
            try container.writeAtomically(Data("x".utf8), to: path)
        }
        try container.createDirectory("Library/Offline")
        try container.writeAtomically(Data("y".utf8), to: "Library/Offline/page.html")
        try container.setExcludedFromBackup(true, at: "Documents/big.mov")
        try container.setExcludedFromBackup(true, at: "Library/Offline")
        // What an interrupted write and the container manager leave behind.
        try Data("old".utf8).write(to: container.url(forRelativePath: "Documents/.sb-abc123.tmp"))
        try Data().write(to: container.url(forRelativePath: ".com.apple.mobile_container_manager.metadata.plist"))

        for path in ["Documents", "Documents/a.txt", "Library", "Library/Preferences/com.example.notes.plist",
                     "Library/Application Support/db"] {
            #expect(container.backupIncludes(path), "\(path)")
        }
        for path in ["Library/Caches", "Library/Caches/c.bin", "tmp", "tmp/t", "Notes.app", "Documents/big.mov",
                     "Library/Offline", "Documents/.sb-abc123.tmp", ".com.apple.mobile_container_manager.metadata.plist",
                     "Documents/missing", "../outside"] {
            #expect(!container.backupIncludes(path), "\(path)")
        }

        // A walk that holds each directory gets the same answer for every item.
        let root = try FileDescriptor.openDirectory(atPath: container.root.path)
        defer { root.closeQuietly() }
        var compared = 0
        try root.walkTree { entry, parent throws(FileSystemError) in
            let byPath = container.backupIncludes(entry.path, isDirectory: entry.status.isDirectory)
            let byEntry = container.backupIncludes(entry: entry.name, in: parent, status: entry.status,
                                                   governedBy: StorageRules.rules(forRelativePath: entry.path),
                                                   isTopLevel: entry.depth == 0, pathLength: entry.path.utf8.count,
                                                   relativePath: { entry.path })
            #expect(byEntry == byPath, "\(entry.path)")
            compared += 1
            return .descend
        }
        #expect(compared > 15)
    }
}
