import Container
import Foundation
import TestSupport
import Testing

@Suite struct FileOperationTests {
    let temp: TemporaryDirectory

    init() throws { temp = try TemporaryDirectory() }

    func container(_ options: ContainerOptions = .default) throws -> AppContainer {
        try AppContainer.create(at: temp.url.appendingPathComponent("App"), bundleName: "Notes", options: options)
    }

    @Test func writeReadAttributesAndCounter() throws {
        let container = try container()
        let before = container.bytesWritten
        try container.writeAtomically(Data("hello".utf8), to: "Documents/a.txt")
        #expect(try container.read("Documents/a.txt") == Data("hello".utf8))
        #expect(container.fileExists("Documents/a.txt"))
        #expect(!container.fileExists("Documents/b.txt"))
        let info = try container.attributes("Documents/a.txt")
        #expect(info.size == 5)
        #expect(!info.isDirectory)
        #expect(info.permissions == 0o644)
        #expect(try container.attributes("Documents").isDirectory)
        #expect(container.bytesWritten - before == 5)
        // Another value on the same root shares the counter.
        let other = try AppContainer(existingAt: container.root)
        try other.writeAtomically(Data("abc".utf8), to: "tmp/x")
        #expect(container.bytesWritten - before == 8)
    }

    @Test(arguments: [WriteDurability.full, .processCrashSafe])
    func atomicWriteKeepsPermissionsAndLeavesNoTemporaryFiles(durability: WriteDurability) throws {
        let container = try container()
        try container.writeAtomically(Data("1".utf8), to: "Documents/a.txt", durability: durability)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: container.root.path + "/Documents/a.txt")
        try container.setExcludedFromBackup(true, at: "Documents/a.txt")
        let before = container.bytesWritten
        try container.writeAtomically(Data("22".utf8), to: "Documents/a.txt", durability: durability)
        #expect(try container.read("Documents/a.txt") == Data("22".utf8))
        #expect(try container.attributes("Documents/a.txt").permissions == 0o600)
        #expect(try container.isExcludedFromBackup("Documents/a.txt"))
        #expect(container.bytesWritten - before == 2)
        #expect(try container.contentsOfDirectory("Documents") == ["a.txt"])
    }

    @Test func largeFilesAreMappedAndSmallOnesRead() throws {
        let container = try container(ContainerOptions(mappedReadThreshold: 4096))
        let small = Data((0..<4096).map { UInt8($0 & 0xff) })
        let large = Data((0..<100_000).map { UInt8(($0 * 7) & 0xff) })
        try container.writeAtomically(small, to: "Documents/small")
        try container.writeAtomically(large, to: "Documents/large")
        #expect(try container.read("Documents/small") == small)
        #expect(try container.read("Documents/large") == large)
        try container.writeAtomically(Data(), to: "Documents/empty")
        #expect(try container.read("Documents/empty").isEmpty)
    }

    @Test func directoriesMoveCopyRemove() throws {
        let container = try container()
        try container.createDirectory("Library/Application Support/db/v1")
        try container.createDirectory("Library/Application Support/db/v1")
        try container.writeAtomically(Data("x".utf8), to: "Library/Application Support/db/v1/a")
        try container.copyItem("Library/Application Support/db", to: "Documents/db-copy")
        #expect(try container.read("Documents/db-copy/v1/a") == Data("x".utf8))
        #expect(throws: ContainerError.self) { try container.copyItem("Library/Application Support/db", to: "Documents/db-copy") }
        try container.moveItem("Documents/db-copy", to: "tmp/moved")
        #expect(!container.fileExists("Documents/db-copy"))
        #expect(try container.contentsOfDirectory("tmp/moved/v1") == ["a"])
        try container.removeItem("tmp/moved")
        #expect(!container.fileExists("tmp/moved"))
        #expect(try code { try container.removeItem("tmp/moved") } == .notFound)
        #expect(try code { _ = try container.read("Documents") } == .isDirectory)
    }

    @Test func writesAtTheRootAndInTheBundleAreRefused() throws {
        let container = try container()
        #expect(try code { try container.writeAtomically(Data(), to: "stray.txt") } == .writeAtRoot)
        #expect(try code { try container.createDirectory("Stuff") } == .writeAtRoot)
        #expect(try code { try container.createDirectory("Stuff/a") } == .writeAtRoot)
        #expect(try code { try container.writeAtomically(Data(), to: "Notes.app/Info.plist") } == .writeInBundle)
        #expect(try code { try container.removeItem("Documents") } == .writeAtRoot)
        #expect(try code { try container.moveItem("Documents", to: "Docs") } == .writeAtRoot)
        try container.createDirectory("Documents")  // exists: fine
    }

    @Test func doNotBackUpFlagSurvivesRewritesCopiesAndMoves() throws {
        for storage in [ExclusionStorage.automatic, .record] {
            let container = try AppContainer.create(at: temp.url.appendingPathComponent("App-\(storage)"),
                                                    options: ContainerOptions(exclusionStorage: storage))
            try container.writeAtomically(Data("1".utf8), to: "Documents/big.db")
            #expect(try !container.isExcludedFromBackup("Documents/big.db"))
            try container.setExcludedFromBackup(true, at: "Documents/big.db")
            #expect(try container.isExcludedFromBackup("Documents/big.db"))
            try container.writeAtomically(Data("2".utf8), to: "Documents/big.db")
            #expect(try container.isExcludedFromBackup("Documents/big.db"), "\(storage)")
            try container.copyItem("Documents/big.db", to: "Documents/copy.db")
            #expect(try container.isExcludedFromBackup("Documents/copy.db"), "\(storage)")
            try container.moveItem("Documents/copy.db", to: "Library/moved.db")
            #expect(try container.isExcludedFromBackup("Library/moved.db"), "\(storage)")
            try container.setExcludedFromBackup(false, at: "Documents/big.db")
            #expect(try !container.isExcludedFromBackup("Documents/big.db"))
            try container.createDirectory("Library/Offline")
            try container.setExcludedFromBackup(true, at: "Library/Offline")
            #expect(try container.isExcludedFromBackup("Library/Offline"))
            #expect(try container.contentsOfDirectory("") == ["Documents", "Library", "tmp"])
        }
    }

    @Test func aCopiedTreeKeepsTheFlagsAndModesOfWhatItHolds() throws {
        for storage in [ExclusionStorage.automatic, .record] {
            let container = try AppContainer.create(at: temp.url.appendingPathComponent("Tree-\(storage)"),
                                                    options: ContainerOptions(exclusionStorage: storage))
            try container.createDirectory("Library/Offline/maps")
            try container.writeAtomically(Data("tile".utf8), to: "Library/Offline/maps/a.tile")
            try container.writeAtomically(Data("note".utf8), to: "Library/Offline/note.txt")
            try container.setExcludedFromBackup(true, at: "Library/Offline/maps")
            try container.setExcludedFromBackup(true, at: "Library/Offline/note.txt")
            let before = container.bytesWritten
            try container.copyItem("Library/Offline", to: "Documents/Offline")
            #expect(container.bytesWritten - before == 8)
            #expect(try container.read("Documents/Offline/maps/a.tile") == Data("tile".utf8))
            #expect(try container.isExcludedFromBackup("Documents/Offline/maps"), "\(storage)")
            #expect(try container.isExcludedFromBackup("Documents/Offline/note.txt"), "\(storage)")
            #expect(try !container.isExcludedFromBackup("Documents/Offline/maps/a.tile"), "\(storage)")
            #expect(try !container.isExcludedFromBackup("Documents/Offline"), "\(storage)")
            #expect(try container.attributes("Documents/Offline/note.txt").permissions == 0o644)
            #expect(try code { try container.copyItem("Library/Missing", to: "Documents/Missing") } == .notFound)
        }
    }

    @Test func exclusiveLockSerializesThreads() async throws {
        let container = try container()
        try container.writeAtomically(Data("0".utf8), to: "Library/Preferences/counter")
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<25 {
                        _ = try? container.withExclusiveLock(on: "Library/Preferences/counter") {
                            let value = Int(String(decoding: try container.read("Library/Preferences/counter"), as: UTF8.self)) ?? -1000
                            try container.writeAtomically(Data(String(value + 1).utf8), to: "Library/Preferences/counter")
                        }
                    }
                }
            }
        }
        #expect(try container.read("Library/Preferences/counter") == Data("100".utf8))
    }
}

/// The error code a throwing call fails with, or nil when it succeeds.
func code(_ body: () throws -> Void) throws -> ContainerError.Code? {
    do {
        try body()
        return nil
    } catch let error as ContainerError {
        return error.code
    }
}
