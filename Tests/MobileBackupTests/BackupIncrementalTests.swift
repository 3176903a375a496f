import Foundation
import Testing
@testable import MobileBackup

@Suite struct BackupIncrementalTests {
    @Test func unchangedFilesAreNotCopiedAgain() throws {
        let fixture = try BackupFixture()
        let writer = fixture.writer()
        let first = try writer.backUp(fixture.sources())
        #expect(first.payloadsCopied == 7)

        let second = try writer.backUp(fixture.sources())
        #expect(second.payloadsCopied == 0)
        #expect(second.payloadsReused == 7)
        #expect(second.bytesCopied == 0)
        #expect(second.isIncremental)

        try fixture.write("Documents/possessions.data", Data("possessions archive, edited".utf8))
        try fixture.write("Documents/new.txt", Data("new".utf8))
        let third = try writer.backUp(fixture.sources())
        #expect(third.payloadsCopied == 2)
        #expect(third.payloadsReused == 6)

        let reader = try BackupReader(directory: fixture.backupDirectory)
        #expect(reader.verify().isClean)
        let edited = try #require(reader.record(domain: BackupFixture.appDomain, relativePath: "Documents/possessions.data"))
        #expect(try reader.contents(of: edited) == Data("possessions archive, edited".utf8))
        #expect(reader.record(domain: BackupFixture.appDomain, relativePath: "Documents/new.txt") != nil)
        // No staging or retired directory is left beside the backup.
        let siblings = try FileManager.default.contentsOfDirectory(atPath: fixture.backupDirectory.deletingLastPathComponent().path)
        #expect(siblings.filter { !$0.hasPrefix(".") } == [fixture.device.udid])  // beside the writer's lock file
    }

    @Test func deletedFilesLeaveTheBackup() throws {
        let fixture = try BackupFixture()
        let writer = fixture.writer()
        try writer.backUp(fixture.sources())
        try FileManager.default.removeItem(at: fixture.container.appendingPathComponent("Documents/empty.txt"))
        try writer.backUp(fixture.sources())
        let reader = try BackupReader(directory: fixture.backupDirectory)
        #expect(reader.record(domain: BackupFixture.appDomain, relativePath: "Documents/empty.txt") == nil)
        let payload = fixture.backupDirectory.appendingPathComponent(BackupFileID.payloadPath(
            BackupFileID.make(domain: BackupFixture.appDomain, relativePath: "Documents/empty.txt")))
        #expect(!FileManager.default.fileExists(atPath: payload.path))
    }

    @Test func interruptedBackupLeavesThePreviousOneUsable() throws {
        let fixture = try BackupFixture()
        try fixture.writer().backUp(fixture.sources())
        let before = try BackupReader(directory: fixture.backupDirectory)
        let oldContents = try before.contents(of: try #require(before.record(domain: BackupFixture.appDomain, relativePath: "Documents/possessions.data")))

        try fixture.write("Documents/possessions.data", Data("changed while backing up".utf8))
        try fixture.write("Library/Application Support/block.bin", Data("also changed".utf8))
        var interrupted = fixture.writer()
        interrupted.interruptAfterCopiedPayloads = 1
        let error = try #require(throws: MobileBackupError.self) { try interrupted.backUp(fixture.sources()) }
        #expect(error.code == .interrupted)

        let after = try BackupReader(directory: fixture.backupDirectory)
        #expect(after.info.snapshotState == "finished")
        #expect(after.verify().isClean)
        let record = try #require(after.record(domain: BackupFixture.appDomain, relativePath: "Documents/possessions.data"))
        #expect(try after.contents(of: record) == oldContents)

        // The next backup cleans up the half-written one and completes.
        let summary = try fixture.writer().backUp(fixture.sources())
        #expect(summary.payloadsCopied == 2)
        let final = try BackupReader(directory: fixture.backupDirectory)
        #expect(try final.contents(of: try #require(final.record(domain: BackupFixture.appDomain, relativePath: "Documents/possessions.data")))
                == Data("changed while backing up".utf8))
    }

    @Test func corruptPayloadsAreReportedPerFile() throws {
        let fixture = try BackupFixture()
        try fixture.writer().backUp(fixture.sources())
        let reader = try BackupReader(directory: fixture.backupDirectory)
        func payload(_ path: String) throws -> URL { try fixture.payload(path, in: reader) }
        // Truncate one payload, flip a byte in another (same size), remove a third.
        let truncated = try payload("Documents/Photos/large.bin")
        let handle = try FileHandle(forWritingTo: truncated)
        try handle.truncate(atOffset: 1000)
        try handle.close()
        let flipped = try payload("Library/Application Support/block.bin")
        var bytes = try Data(contentsOf: flipped)
        bytes[500] ^= 0xFF
        try FileManager.default.removeItem(at: flipped)  // a new inode: the backup's hard links stay intact
        try bytes.write(to: flipped)
        try FileManager.default.removeItem(at: try payload("Documents/possessions.data"))

        let report = reader.verify()
        let kinds = Dictionary(uniqueKeysWithValues: report.problems.map { ($0.relativePath, $0.kind) })
        #expect(kinds == ["Documents/Photos/large.bin": .truncated, "Library/Application Support/block.bin": .digestMismatch,
                          "Documents/possessions.data": .missing])

        let output = fixture.base.appendingPathComponent("extracted")
        let extraction = try reader.extract(domain: BackupFixture.appDomain, to: output)
        #expect(extraction.problems.count == 3)
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("Documents/Photos/large.bin").path))
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("Library/Application Support/block.bin").path))
        #expect(try Data(contentsOf: output.appendingPathComponent("Documents/empty.txt")) == Data())
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: output.path).filter { $0.hasSuffix(".sandbox-partial") }
        #expect(leftovers.isEmpty)
    }

    @Test func aSealedCommitIsFinishedByTheNextWriterNeverByAReader() throws {
        let fixture = try BackupFixture()
        try fixture.writer().backUp(fixture.sources())
        try fixture.write("Documents/possessions.data", Data("sealed but not applied".utf8))
        try FileManager.default.removeItem(at: fixture.container.appendingPathComponent("Documents/empty.txt"))
        var crashing = fixture.writer()
        crashing.interruptBeforeApplyingCommit = true
        let error = try #require(throws: MobileBackupError.self) { try crashing.backUp(fixture.sources()) }
        #expect(error.code == .interrupted)
        #expect(FileManager.default.fileExists(atPath: fixture.backupDirectory.appendingPathComponent(IncrementalCommit.directoryName).path))

        // Opening the backup only reads it: the previous backup, whole, and the commit left alone.
        let before = try BackupReader(directory: fixture.backupDirectory)
        #expect(FileManager.default.fileExists(atPath: fixture.backupDirectory.appendingPathComponent(IncrementalCommit.directoryName).path))
        #expect(try before.contents(of: try #require(before.record(domain: BackupFixture.appDomain, relativePath: "Documents/possessions.data")))
                == Data("possessions archive".utf8))
        #expect(before.verify().isClean)

        // The next writer rolls the commit forward.
        try fixture.writer().finishInterruptedBackup()
        let reader = try BackupReader(directory: fixture.backupDirectory)
        #expect(!FileManager.default.fileExists(atPath: fixture.backupDirectory.appendingPathComponent(IncrementalCommit.directoryName).path))
        let record = try #require(reader.record(domain: BackupFixture.appDomain, relativePath: "Documents/possessions.data"))
        #expect(try reader.contents(of: record) == Data("sealed but not applied".utf8))
        #expect(reader.record(domain: BackupFixture.appDomain, relativePath: "Documents/empty.txt") == nil)
        #expect(reader.verify().isClean)
        let next = try fixture.writer().backUp(fixture.sources())
        #expect(next.payloadsCopied == 0)
    }
}
