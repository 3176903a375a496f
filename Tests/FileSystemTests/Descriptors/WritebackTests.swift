import FileSystem
import Foundation
import SystemPackage
import Testing

/// `startWriteback` is a hint to the disk: it changes nothing a reader sees,
/// and where the system cannot take it, it is ignored.
@Suite struct WritebackTests {
    @Test func startingWritebackLeavesTheFileAsWritten() throws {
        let scratch = try Scratch()
        let bytes = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let file = try scratch.directory.open("part.bin", .readWrite, options: [.create])
        defer { file.closeQuietly() }
        try file.writeFully(bytes)
        file.startWriteback(offset: 4096, count: 8192)
        // A count of 0 runs to the end of the file.
        file.startWriteback(offset: 0, count: 0)
        try file.writeFully(Data("tail".utf8))
        try file.sync()
        #expect(try file.status().size == UInt64(bytes.count + 4))
        #expect(try file.readAll() == bytes + Data("tail".utf8))
    }

    @Test func aDescriptorThatIsNoFileIsIgnored() throws {
        let scratch = try Scratch()
        // `sync_file_range` refuses a directory; the hint must not throw or trap.
        scratch.directory.startWriteback(offset: 0, count: 0)
        #expect(try scratch.directory.status().isDirectory)
    }
}
