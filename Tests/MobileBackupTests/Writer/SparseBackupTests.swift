import FileSystem
import Foundation
import Testing
@testable import MobileBackup

/// Issue 29, finding 13: a sparse file in a container (an app can make a
/// 1 TB one with `ftruncate`) is backed up and restored as its data
/// extents: the payload and the restored file keep the holes, the backup
/// takes seconds and a few megabytes, and the contents are identical. An
/// encrypted backup cannot keep holes, so it is refused before it writes
/// when the disk cannot hold the ciphertext.
@Suite(.timeLimit(.minutes(2))) struct SparseBackupTests {
    static let terabyte: UInt64 = 1 << 40
    /// Data written at these offsets of the 1 TB file: its first bytes, one
    /// in the middle that straddles a block edge, and its very last bytes.
    static let pieces: [(offset: UInt64, bytes: Data)] = [
        (0, Data("start of a huge sparse file".utf8)),
        ((1 << 39) - 5, BackupFixture.pseudoRandom(count: 200_000, seed: 11)),
        (terabyte - 9, Data("last byte".utf8)),
    ]

    /// Makes `relativePath` in the fixture's container: `size` bytes of
    /// holes with `pieces` written at their offsets.
    static func makeSparse(_ fixture: BackupFixture, _ relativePath: String, size: UInt64,
                           pieces: [(offset: UInt64, bytes: Data)]) throws -> URL {
        let url = fixture.container.appendingPathComponent(relativePath)
        FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.truncate(atOffset: size)
        for piece in pieces {
            try handle.seek(toOffset: piece.offset)
            try handle.write(contentsOf: piece.bytes)
        }
        return url
    }

    /// `count` bytes of the file at `url` from `offset`.
    static func read(_ url: URL, at offset: UInt64, count: Int) throws -> Data {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        try handle.seek(toOffset: offset)
        return try handle.read(upToCount: count) ?? Data()
    }

    static func status(_ url: URL) throws -> FileStatus {
        try #require(try FileSystemPaths.status(atPath: url.path))
    }

    @Test func aTerabyteSparseFileIsBackedUpAndRestoredAsItsData() throws {
        let fixture = try BackupFixture()
        let huge = try Self.makeSparse(fixture, "Documents/huge.img", size: Self.terabyte, pieces: Self.pieces)
        // A small sparse file keeps its digest: its holes are cheap to hash.
        let small = try Self.makeSparse(fixture, "Documents/small.img", size: 16 << 20,
                                        pieces: [(8 << 20, Data("middle".utf8))])
        let started = Date()
        let summary = try fixture.writer().backUp(fixture.sources())
        let backupSeconds = Date().timeIntervalSince(started)
        #expect(backupSeconds < 20, "the backup took \(backupSeconds) s")
        #expect(summary.bytesCopied > Int64(Self.terabyte))

        let reader = try BackupReader(directory: fixture.backupDirectory)
        let record = try #require(reader.record(domain: BackupFixture.appDomain, relativePath: "Documents/huge.img"))
        #expect(record.size == Int64(Self.terabyte))
        #expect(record.digest == nil, "a terabyte of holes cannot be hashed in time; the row is checked by size")
        let smallRecord = try #require(reader.record(domain: BackupFixture.appDomain, relativePath: "Documents/small.img"))
        #expect(smallRecord.digest?.count == 20)

        // The payload is as sparse as the source: same size, a few megabytes on disk.
        let payload = try Self.status(try fixture.payload("Documents/huge.img", in: reader))
        #expect(payload.size == Self.terabyte)
        #expect(payload.allocatedBytes < 16 << 20, "the payload holds \(payload.allocatedBytes) bytes")
        #expect(reader.verify().isClean)

        // Restored into a new container: the same extents, the holes kept.
        let restoredRoot = fixture.base.appendingPathComponent("restored")
        try FileManager.default.createDirectory(at: restoredRoot, withIntermediateDirectories: true)
        let restoreStarted = Date()
        let report = try BackupRestorer(reader).restoreApp(bundleID: BackupFixture.bundleID,
                                                           into: DirectoryHandle(openingAt: restoredRoot.path), layout: .testApp)
        let restoreSeconds = Date().timeIntervalSince(restoreStarted)
        #expect(restoreSeconds < 20, "the restore took \(restoreSeconds) s")
        #expect(report.problems.isEmpty)
        let restored = restoredRoot.appendingPathComponent("Documents/huge.img")
        let restoredStatus = try Self.status(restored)
        #expect(restoredStatus.size == Self.terabyte)
        #expect(restoredStatus.allocatedBytes < 16 << 20, "the restored file holds \(restoredStatus.allocatedBytes) bytes")
        for piece in Self.pieces {
            #expect(try Self.read(restored, at: piece.offset, count: piece.bytes.count) == piece.bytes)
            #expect(try Self.read(restored, at: piece.offset, count: piece.bytes.count) == Self.read(huge, at: piece.offset, count: piece.bytes.count))
        }
        // Holes read as zeros, before, between and after the data.
        #expect(try Self.read(restored, at: 1 << 30, count: 4_096) == Data(count: 4_096))
        #expect(try Self.read(restored, at: Self.terabyte - 4_105, count: 4_096) == Data(count: 4_096))
        let restoredSmall = restoredRoot.appendingPathComponent("Documents/small.img")
        #expect(try Data(contentsOf: restoredSmall) == Data(contentsOf: small))
    }

    @Test func anEncryptedBackupThatCannotFitIsRefusedBeforeWriting() throws {
        let fixture = try BackupFixture()
        _ = try Self.makeSparse(fixture, "Documents/huge.img", size: Self.terabyte, pieces: Self.pieces)
        let free = try FileSystemPaths.space(atPath: fixture.base.path).available
        try #require(free < Self.terabyte, "this disk could hold the ciphertext of a terabyte")
        let error = try #require(throws: MobileBackupError.self) {
            try fixture.writer(password: "pw").backUp(fixture.sources())
        }
        #expect(error.code == .insufficientSpace)
        #expect(error.message.contains("encrypted"))
        #expect(error.message.contains("free"))
        // Nothing was left: no backup, no staging folder.
        let backups = fixture.backupDirectory.deletingLastPathComponent()
        let left = try FileManager.default.contentsOfDirectory(atPath: backups.path).filter { !$0.hasPrefix(".") }
        #expect(left.isEmpty, "left behind: \(left)")
    }
}
