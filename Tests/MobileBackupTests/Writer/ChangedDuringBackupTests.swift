import FileSystem
import Foundation
import SystemPackage
import Testing
@testable import MobileBackup

/// Files that change between the walk and the read (`BackupWriter.afterScan`
/// runs between the two).
@Suite struct ChangedDuringBackupTests {
    /// The choice for a file that grows or shrinks but stays the same file
    /// (same inode): the backup records what it read, so the row's size and
    /// digest always match the payload.
    @Test func aFileThatGrowsAfterTheWalkIsRecordedAsRead() throws {
        let fixture = try BackupFixture()
        let grown = Data("possessions archive, and then some more".utf8)
        let path = fixture.container.appendingPathComponent("Documents/possessions.data").path
        var writer = fixture.writer()
        writer.afterScan = {
            // Rewrite in place: the same inode with more bytes.
            guard let file = try? FileDescriptor.open(atPath: path, .writeOnly, options: .truncate) else { return }
            try? file.writeFully(grown)
            file.closeQuietly()
        }
        let summary = try writer.backUp(fixture.sources())
        #expect(summary.skippedFiles.isEmpty)
        let reader = try BackupReader(directory: fixture.backupDirectory)
        let record = try #require(reader.record(domain: BackupFixture.appDomain, relativePath: "Documents/possessions.data"))
        #expect(record.size == Int64(grown.count))
        #expect(try reader.contents(of: record) == grown)
        #expect(reader.verify().isClean)
    }

    /// A domain's filter that cannot judge an item (a container whose
    /// do-not-back-up flag is unreadable) has it skipped and listed with
    /// its reason, and nothing below it is walked; the filter sees the
    /// entries with the directory that holds them.
    @Test func anItemTheFilterCannotJudgeIsSkippedAndListed() throws {
        let fixture = try BackupFixture()
        let seen = Locked<[String]>([])
        let source = BackupDomainSource(domain: BackupFixture.appDomain, root: fixture.container, filter: {
            { entry, parent in
                seen.withLock { $0.append(entry.path) }
                #expect((try? parent.status(of: entry.name))?.isSameFile(as: entry.status) == true)
                if entry.path == "Documents" { return .skip(.flagUnreadable, message: "cannot read the flag") }
                return entry.path.hasPrefix("Library/Caches") ? .exclude : .include
            }
        })
        let summary = try fixture.writer().backUp([source])
        #expect(summary.skippedFiles.map(\.relativePath) == ["Documents"])
        #expect(summary.skippedFiles.first?.reason == .flagUnreadable)
        #expect(summary.skippedFiles.first?.message == "cannot read the flag")
        let paths = seen.withLock { $0 }
        #expect(paths.contains("Library"))
        #expect(!paths.contains { $0.hasPrefix("Documents/") })
        let reader = try BackupReader(directory: fixture.backupDirectory)
        #expect(reader.records.allSatisfy { !$0.relativePath.hasPrefix("Documents") })
    }

    /// A file swapped for a link to an outside file after the walk is left
    /// out and reported; the outside bytes are never read.
    @Test func aFileSwappedForALinkAfterTheWalkIsSkippedAndReported() throws {
        let fixture = try BackupFixture()
        let secret = fixture.base.appendingPathComponent("secret.txt")
        try Data("outside secret".utf8).write(to: secret)
        let path = fixture.container.appendingPathComponent("Documents/possessions.data").path
        var writer = fixture.writer()
        writer.afterScan = {
            try? FileSystemPaths.removeFile(atPath: path)
            try? FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: secret.path)
        }
        let summary = try writer.backUp(fixture.sources())
        #expect(summary.skippedFiles.map(\.relativePath) == ["Documents/possessions.data"])
        #expect(summary.skippedFiles.first?.reason == .changedSinceScan)
        let reader = try BackupReader(directory: fixture.backupDirectory)
        #expect(reader.record(domain: BackupFixture.appDomain, relativePath: "Documents/possessions.data") == nil)
        for record in reader.records where record.kind == .file {
            #expect(try reader.contents(of: record) != Data("outside secret".utf8))
        }
        #expect(reader.verify().isClean)
    }
}
