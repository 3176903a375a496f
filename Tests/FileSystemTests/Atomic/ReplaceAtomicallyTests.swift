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

    private func attribute(_ name: String, of file: String, in scratch: Scratch) throws -> [UInt8]? {
        let fd = try scratch.directory.open(file, .readOnly)
        defer { fd.closeQuietly() }
        return try fd.extendedAttribute(name)
    }
}
