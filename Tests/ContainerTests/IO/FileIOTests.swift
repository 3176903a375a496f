import Container
import Foundation
import TestSupport
import Testing

@Suite struct FileIOTests {
    let temp: TemporaryDirectory

    init() throws { temp = try TemporaryDirectory("io") }

    func container() throws -> AppContainer {
        try AppContainer.create(at: temp.url.appendingPathComponent("App"))
    }

    @Test func randomAccessReadWriteAppendTruncate() throws {
        let container = try container()
        let before = container.bytesWritten
        let handle = try container.openFile("Library/log.bin", mode: .readWriteCreate)
        try handle.write(Data("hello world".utf8), at: 0)
        try handle.write(Data("W".utf8), at: 6)
        #expect(try handle.append(Data("!".utf8)) == 11)
        #expect(try handle.read(at: 6, count: 100) == Data("World!".utf8))
        #expect(try handle.size() == 12)
        try handle.truncate(to: 5)
        try handle.synchronize()
        handle.close()
        #expect(throws: ContainerError.self) { try handle.size() }
        #expect(try container.read("Library/log.bin") == Data("hello".utf8))
        #expect(container.bytesWritten - before == 13)
        #expect(try code { _ = try container.openFile("Library/missing", mode: .readWrite) } == .notFound)
        #expect(try code { _ = try container.openFile("top.bin", mode: .readWriteCreate) } == .writeAtRoot)
        #expect(try code { _ = try container.openFile("Library", mode: .read) } == .isDirectory)
        let reader = try container.openFile("Library/log.bin")
        #expect(try reader.read(at: 1, count: 2) == Data("el".utf8))
    }

    @Test("readWriteEmptied creates a missing file and empties an existing one in the open")
    func openEmptied() throws {
        let container = try container()
        let created = try container.openFile("Library/part.bin", mode: .readWriteEmptied)
        #expect(try created.size() == 0)
        try created.write(Data("first version".utf8), at: 0)
        created.close()
        let emptied = try container.openFile("Library/part.bin", mode: .readWriteEmptied)
        #expect(try emptied.size() == 0)
        try emptied.write(Data("2".utf8), at: 0)
        emptied.close()
        #expect(try container.read("Library/part.bin") == Data("2".utf8))
        #expect(try code { _ = try container.openFile("top.bin", mode: .readWriteEmptied) } == .writeAtRoot)
    }

    @Test("startWriteback is a hint: the file reads as written, and a closed handle ignores it")
    func writebackHint() throws {
        let container = try container()
        let handle = try container.openFile("Library/Caches/part.bin", mode: .readWriteCreate)
        let bytes = Data((0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        try handle.write(bytes, at: 0)
        handle.startWriteback()
        #expect(try handle.size() == UInt64(bytes.count))
        handle.close()
        handle.startWriteback()
        #expect(try container.read("Library/Caches/part.bin") == bytes)
    }

    @Test func patchWritesOnlyTheChangedRanges() throws {
        let container = try container()
        var content = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try container.writeAtomically(content, to: "Library/db")
        let inode = try container.attributes("Library/db").inode
        content[10] = 0xFF
        content[11] = 0xFE
        content[50_000] ^= 0xFF
        content.append(contentsOf: [1, 2, 3])
        let before = container.bytesWritten
        let report = try container.patch(content, at: "Library/db", mergeGap: 8)
        #expect(report.ranges == [10..<12, 50_000..<50_001, 100_000..<100_003])
        #expect(report.bytesWritten == 6)
        #expect(container.bytesWritten - before == 6)
        #expect(try container.read("Library/db") == content)
        #expect(try container.attributes("Library/db").inode == inode)
        // Shrinking truncates; nothing else differs.
        let shorter = content.prefix(60_000)
        let cut = try container.patch(Data(shorter), at: "Library/db")
        #expect(cut.bytesWritten == 0)
        #expect(try container.read("Library/db") == shorter)
        // Nearby changes merge into one range.
        var near = Data(shorter)
        near[100] ^= 1
        near[110] ^= 1
        #expect(try container.patch(near, at: "Library/db", mergeGap: 16).ranges == [100..<111])
    }

    @Test func fileSizeLimitGivesATypedErrorAndKeepsTheOldContent() throws {
        let container = try container()
        let old = Data(repeating: 0x41, count: 1000)
        try container.writeAtomically(old, to: "Documents/doc.bin")
        let output = try CrashWriter.output(["limit", container.root.path, "Documents/doc.bin", "4096", "100000"])
        #expect(output == "fileTooLarge")
        #expect(try container.read("Documents/doc.bin") == old)
        #expect(try container.contentsOfDirectory("Documents") == ["doc.bin"])
        // Under the limit the same process writes fine.
        #expect(try CrashWriter.output(["limit", container.root.path, "Documents/doc.bin", "4096", "2000"]) == "ok")
        #expect(try container.read("Documents/doc.bin").count == 2000)
    }

    @Test(.enabled(if: PrivateMount.shouldRun, "needs unshare and the right to mount a tmpfs"))
    func diskFullGivesATypedErrorAndKeepsTheOldContent() throws {
        let mountPoint = URL(fileURLWithPath: temp.path("full"))
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        let writer = try #require(CrashWriter.executable, "container-crash-writer was not built")
        // A 512 KiB file system: the writer fills it, then tries a 200 KB write.
        let result = try PrivateMount.run(mountPoint: mountPoint, size: "512k",
                                          command: [writer.path, "full", mountPoint.path, "Documents/doc.bin", "200000"])
        #expect(result.status == 0)
        #expect(result.output == "diskFull intact clean\n", "\(result.standardError)")
    }
}
