import FileSystem
import Foundation
import SystemPackage
import Testing

/// The package's one atomic write, at each durability.
@Suite struct ReplaceAtomicallyTests {
    static let durabilities: [Durability] = [.none, .fileOnly, .full]

    @Test(arguments: durabilities)
    func replacingKeepsTheModeAndLeavesNoTemporary(durability: Durability) throws {
        let scratch = try Scratch()
        try scratch.write("old", to: "file.txt", permissions: 0o640)
        try scratch.directory.writeAtomically(Data("new".utf8), to: "file.txt",
                                              options: AtomicWriteOptions(durability: durability))
        #expect(try scratch.read("file.txt") == "new")
        #expect(try scratch.directory.status(of: "file.txt").permissions == 0o640)
        #expect(try scratch.temporaries().isEmpty)
    }

    @Test(arguments: durabilities)
    func aNewFileGetsTheGivenOrDefaultMode(durability: Durability) throws {
        let scratch = try Scratch()
        try scratch.directory.writeAtomically(Data("a".utf8), to: "default.txt", options: AtomicWriteOptions(durability: durability))
        try scratch.directory.writeAtomically(Data("b".utf8), to: "private.txt",
                                              options: AtomicWriteOptions(durability: durability, permissions: 0o600))
        #expect(try scratch.directory.status(of: "default.txt").permissions == 0o644)
        #expect(try scratch.directory.status(of: "private.txt").permissions == 0o600)
    }

    @Test(arguments: durabilities)
    func extendedAttributesCarryOverOnlyWhenAsked(durability: Durability) throws {
        let scratch = try Scratch()
        try scratch.write("old", to: "file.txt")
        let file = try scratch.directory.open("file.txt", .readOnly)
        defer { file.closeQuietly() }
        let failure: FileSystemError?
        do { try file.setExtendedAttribute("user.test.flag", [1]); failure = nil } catch { failure = error }
        if let failure {
            if failure.isUnsupported || failure.isPermission { return }  // this file system keeps no attributes
            throw failure
        }
        try scratch.directory.writeAtomically(Data("kept".utf8), to: "file.txt",
                                              options: AtomicWriteOptions(durability: durability, keepsExtendedAttributes: true))
        #expect(try attribute("user.test.flag", of: "file.txt", in: scratch) == [1])
        try scratch.directory.writeAtomically(Data("dropped".utf8), to: "file.txt",
                                              options: AtomicWriteOptions(durability: durability))
        #expect(try attribute("user.test.flag", of: "file.txt", in: scratch) == nil)
    }

    @Test(arguments: durabilities)
    func aFailingFillLeavesTheOldFileAndNoTemporary(durability: Durability) throws {
        let scratch = try Scratch()
        try scratch.write("old", to: "file.txt")
        let failure = FileSystemError(.noSpace, "write", path: "")
        do {
            try scratch.directory.replaceAtomically("file.txt", options: AtomicWriteOptions(durability: durability)) {
                file throws(FileSystemError) in
                try file.writeFully(Data("partial".utf8))
                throw failure
            }
            Issue.record("the failure was swallowed")
        } catch {
            #expect(error.isNoSpace)
        }
        #expect(try scratch.read("file.txt") == "old")
        #expect(try scratch.temporaries().isEmpty)
    }

    @Test(arguments: durabilities)
    func withoutReplacingAnExistingFileIsRefused(durability: Durability) throws {
        let scratch = try Scratch()
        try scratch.write("old", to: "file.txt")
        let options = AtomicWriteOptions(durability: durability, replacesExisting: false)
        do {
            try scratch.directory.writeAtomically(Data("new".utf8), to: "file.txt", options: options)
            Issue.record("the existing file was replaced")
        } catch {
            #expect(error.isExists)
        }
        #expect(try scratch.read("file.txt") == "old")
        #expect(try scratch.temporaries().isEmpty)
        try scratch.directory.writeAtomically(Data("fresh".utf8), to: "new.txt", options: options)
        #expect(try scratch.read("new.txt") == "fresh")
    }

    @Test func aDirectoryIsNeverReplaced() throws {
        let scratch = try Scratch()
        try scratch.directory.makeDirectory("folder")
        #expect(throws: FileSystemError.self) {
            try scratch.directory.writeAtomically(Data("x".utf8), to: "folder")
        }
        #expect(try scratch.directory.status(of: "folder").isDirectory)
    }

    @Test(arguments: durabilities)
    func theReplacedFileIsHeldOnlyUntilItsReleaseAndNeverByName(durability: Durability) throws {
        let scratch = try Scratch()
        try scratch.write(String(repeating: "old", count: 10_000), to: "file.txt")
        var mostHeld = 0
        for round in 0..<(ReplacedFiles.capacity * 3) {
            try scratch.directory.writeAtomically(Data("new \(round)".utf8), to: "file.txt",
                                                  options: AtomicWriteOptions(durability: durability))
            // Nothing of the old file is left under any name when the replace returns.
            #expect(try FileSystemPaths.entries(atPath: scratch.path) == ["file.txt"])
            mostHeld = max(mostHeld, try heldFiles(in: scratch).count)
        }
        #expect(try scratch.read("file.txt") == "new \(ReplacedFiles.capacity * 3 - 1)")
        // A burst never holds more replaced files open than the release queue takes.
        #expect(mostHeld <= ReplacedFiles.capacity)
        ReplacedFiles.waitForReleases()
        #expect(try heldFiles(in: scratch).isEmpty)
    }

    @Test(arguments: durabilities)
    func aLinkAtTheNameIsReplacedAndItsTargetLeftAlone(durability: Durability) throws {
        let scratch = try Scratch()
        try scratch.write("outside", to: "target.txt")
        try scratch.link("file.txt", to: scratch.path + "/target.txt")
        try scratch.directory.writeAtomically(Data("new".utf8), to: "file.txt",
                                              options: AtomicWriteOptions(durability: durability))
        #expect(try scratch.directory.status(of: "file.txt").isRegularFile)
        #expect(try scratch.read("file.txt") == "new")
        #expect(try scratch.read("target.txt") == "outside")
    }

    /// By path, the write is specialized in the caller for each kind of
    /// bytes (`@inlinable`): contiguous, an array, and regions in pieces.
    @Test(arguments: durabilities)
    func byPathWritesEveryKindOfBytes(durability: Durability) throws {
        let scratch = try Scratch()
        let path = scratch.path + "/file.txt"
        let options = AtomicWriteOptions(durability: durability)
        try FileSystemPaths.writeAtomically(Data("data".utf8), toPath: path, options: options)
        #expect(try scratch.read("file.txt") == "data")
        try FileSystemPaths.writeAtomically(Array("array".utf8), toPath: path, options: options)
        #expect(try scratch.read("file.txt") == "array")
        var pieces = DispatchData.empty
        for piece in ["in ", "three ", "pieces"] {
            Array(piece.utf8).withUnsafeBytes { pieces.append(DispatchData(bytes: $0)) }
        }
        #expect(pieces.regions.count == 3)
        try FileSystemPaths.writeAtomically(pieces, toPath: path, options: options)
        #expect(try scratch.read("file.txt") == "in three pieces")
        #expect(try scratch.temporaries().isEmpty)
        do {
            try FileSystemPaths.writeAtomically(Data("x".utf8), toPath: scratch.path + "/missing/file.txt", options: options)
            Issue.record("a write into a missing directory succeeded")
        } catch {
            let failure: FileSystemError? = error
            #expect(failure?.isNotFound == true && failure?.path == scratch.path + "/missing/file.txt")
        }
    }

    @Test func aFailedReplaceKeepsNoHold() throws {
        let scratch = try Scratch()
        try scratch.write("old", to: "file.txt")
        let failure = FileSystemError(.noSpace, "write", path: "")
        #expect(throws: FileSystemError.self) {
            try scratch.directory.replaceAtomically("file.txt") { _ throws(FileSystemError) in throw failure }
        }
        #expect(try heldFiles(in: scratch).isEmpty)
        #expect(try scratch.read("file.txt") == "old")
    }

    /// This process's descriptors open on files under the scratch directory,
    /// read from `/proc/self/fd` (other tests' descriptors are elsewhere).
    private func heldFiles(in scratch: Scratch) throws -> [String] {
        #if os(Linux)
        let prefix = URL(fileURLWithPath: scratch.path).standardizedFileURL.path
        return try FileSystemPaths.entries(atPath: "/proc/self/fd").compactMap { fd in
            guard let target = try? FileSystemPaths.readLink(atPath: "/proc/self/fd/" + fd),
                  target.hasPrefix(prefix + "/") else { return nil }
            return target
        }
        #else
        return []
        #endif
    }

    private func attribute(_ name: String, of file: String, in scratch: Scratch) throws -> [UInt8]? {
        let fd = try scratch.directory.open(file, .readOnly)
        defer { fd.closeQuietly() }
        return try fd.extendedAttribute(name)
    }
}
