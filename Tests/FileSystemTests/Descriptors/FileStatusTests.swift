import FileSystem
import Foundation
import SystemPackage
import Testing

/// What `stat` reports, and the classification of failures.
@Suite struct FileStatusTests {
    @Test func statusDescribesWhatIsThere() throws {
        let scratch = try Scratch()
        try scratch.write("12345", to: "file", permissions: 0o640)
        try scratch.link("link", to: "file")
        let file = try scratch.directory.status(of: "file")
        #expect(file.isRegularFile && file.size == 5 && file.permissions == 0o640)
        #expect(try scratch.directory.status(of: "link").isSymbolicLink)
        #expect(try scratch.directory.status(of: "link", followLinks: true).isSameFile(as: file))
        #expect(try scratch.directory.statusIfPresent(of: "missing") == nil)
    }

    @Test func statusByNameBytesLooksAtTheNamedFileOnly() throws {
        let scratch = try Scratch()
        try scratch.write("12345", to: "file")
        try scratch.link("link", to: "file")
        // Names cut out of a longer buffer: the bytes after a name are not
        // part of it.
        let buffer = Array("filelink\u{0}x".utf8)
        try buffer.withUnsafeBufferPointer { bytes in
            let file = try scratch.directory.statusIfPresent(ofNameBytes: UnsafeBufferPointer(rebasing: bytes[0..<4]))
            #expect(file?.isRegularFile == true && file?.size == 5)
            let link = try scratch.directory.statusIfPresent(ofNameBytes: UnsafeBufferPointer(rebasing: bytes[4..<8]))
            #expect(link?.isSymbolicLink == true)
            #expect(try scratch.directory.statusIfPresent(ofNameBytes: UnsafeBufferPointer(rebasing: bytes[0..<3])) == nil)
            do {
                _ = try scratch.directory.statusIfPresent(ofNameBytes: UnsafeBufferPointer(rebasing: bytes[4..<10]))
                Issue.record("a name with a NUL byte was looked up")
            } catch {
                #expect((error as? FileSystemError)?.errno == .invalidArgument)
            }
        }
    }

    @Test func failuresAreClassified() throws {
        let scratch = try Scratch()
        do { _ = try scratch.directory.open("missing", .readOnly); Issue.record("opened") } catch {
            #expect(error.isNotFound)
            #expect(error.path == "missing")
        }
        try scratch.directory.makeDirectory("d")
        do { try scratch.directory.makeDirectory("d"); Issue.record("made twice") } catch { #expect(error.isExists) }
        try scratch.directory.makeDirectoryIfMissing("d")
    }

    @Test func entriesAreSortedBytewise() throws {
        let scratch = try Scratch()
        for name in ["b", "B", "a", "é"] { try scratch.write(name, to: name) }
        #expect(try scratch.directory.sortedEntries() == ["B", "a", "b", "é"])
    }
}
