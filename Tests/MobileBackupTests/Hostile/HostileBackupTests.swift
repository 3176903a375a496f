import Foundation
import PropertyList
import TestSupport
import Testing
@testable import MobileBackup

/// Hostile backups (issue 14): a backup is untrusted input, and reading it
/// writes nothing, anywhere.
@Suite struct HostileBackupTests {
    /// Finding 1: a planted commit journal with a bucket linked outside is
    /// never applied by a reader, verify, extract or info.
    @Test func readingABackupWithAHostileCommitWritesNothing() throws {
        let fixture = try BackupFixture()
        try fixture.writer().backUp(fixture.sources())
        let outside = fixture.base.appendingPathComponent("outside")
        try HostileBackup.plantHostileCommit(in: fixture.backupDirectory, outside: outside)
        let outsideBefore = try TreeSnapshot.take(outside)
        let backupBefore = try TreeSnapshot.take(fixture.backupDirectory)

        _ = try BackupInfo.read(directory: fixture.backupDirectory)
        let reader = try BackupReader(directory: fixture.backupDirectory)
        #expect(reader.verify().isClean)
        _ = try reader.extract(domain: BackupFixture.appDomain, to: fixture.base.appendingPathComponent("extracted"))
        _ = try BackupRestorer(reader).restoreGroup("group.com.example.possessions", into: fixture.base.appendingPathComponent("group-out"), layout: .testGroup)

        #expect(try TreeSnapshot.take(outside) == outsideBefore)
        #expect(try TreeSnapshot.take(fixture.backupDirectory) == backupBefore)
    }

    /// Finding 1: the writer does recover, beneath the backup only: the
    /// linked bucket is replaced by a directory, never followed.
    @Test func aWriterRecoversAHostileCommitWithoutFollowingItsLinkedBucket() throws {
        let fixture = try BackupFixture()
        try fixture.writer().backUp(fixture.sources())
        let outside = fixture.base.appendingPathComponent("outside")
        let fileID = try HostileBackup.plantHostileCommit(in: fixture.backupDirectory, outside: outside)
        let outsideBefore = try TreeSnapshot.take(outside)
        try fixture.writer().finishInterruptedBackup()
        #expect(try TreeSnapshot.take(outside) == outsideBefore)
        let bucket = fixture.backupDirectory.appendingPathComponent(String(fileID.prefix(2)))
        let type = try FileManager.default.attributesOfItem(atPath: bucket.path)[.type] as? FileAttributeType
        #expect(type == .typeDirectory)
        #expect(try BackupReader(directory: fixture.backupDirectory).verify().isClean)
    }

    /// Finding 1: a payload's bucket that is a link to a copy outside is a
    /// missing payload, never read through.
    @Test func aLinkedBucketIsNotReadThrough() throws {
        let fixture = try BackupFixture()
        try fixture.writer().backUp(fixture.sources())
        let reader = try BackupReader(directory: fixture.backupDirectory)
        let record = try #require(reader.record(domain: BackupFixture.appDomain, relativePath: "Documents/possessions.data"))
        let bucket = fixture.backupDirectory.appendingPathComponent(String(record.fileID.prefix(2)))
        let outside = fixture.base.appendingPathComponent("outside-bucket")
        try FileManager.default.moveItem(at: bucket, to: outside)
        try FileManager.default.createSymbolicLink(at: bucket, withDestinationURL: outside)
        let problems = try BackupReader(directory: fixture.backupDirectory).verify().problems
        #expect(problems.contains { $0.relativePath == "Documents/possessions.data" && $0.kind == .missing })
    }

    /// Finding 9: ITER or DPIC beyond iOS's 10,000,000 is refused before any key is derived.
    @Test func hugeKeyBagIterationCountsAreRefused() throws {
        let (bag, _) = try BackupKeyBag.create(password: "p", parameters: BackupKeyDerivation(doubleProtectionIterations: 1, iterations: 1))
        for (iterations, doubleProtection) in [(0xFFFF_FFFF, 1), (1, 0xFFFF_FFFF), (10_000_001, 1)] {
            var hostile = bag
            hostile.iterations = iterations
            hostile.doubleProtectionIterations = doubleProtection
            let error = try #require(throws: MobileBackupError.self) { try BackupKeyBag.parse(hostile.serialized()) }
            #expect(error.code == .malformedKeyBag)
            #expect(error.message.contains("10000000"))
        }
        var limit = bag
        limit.doubleProtectionIterations = BackupKeyDerivation.maximumIterations
        #expect(try BackupKeyBag.parse(limit.serialized()).doubleProtectionIterations == 10_000_000)

        // Through the reader: the crafted keybag in Manifest.plist is refused at once.
        let fixture = try BackupFixture()
        try fixture.writer(password: "hunter2").backUp(fixture.sources())
        var crafted = bag
        crafted.iterations = 0xFFFF_FFFF
        try HostileBackup.setKey("BackupKeyBag", to: .data(crafted.serialized()),
                                 in: fixture.backupDirectory.appendingPathComponent("Manifest.plist"))
        let started = Date()
        let error = try #require(throws: MobileBackupError.self) {
            try BackupReader(directory: fixture.backupDirectory, password: "hunter2")
        }
        #expect(error.code == .malformedKeyBag)
        #expect(Date().timeIntervalSince(started) < 5)
    }

    /// Finding 15: an encrypted backup without Manifest.plist says so, not "SQLite error 26".
    @Test func anEncryptedBackupWithoutManifestPlistSaysSo() throws {
        let fixture = try BackupFixture()
        try fixture.writer(password: "hunter2").backUp(fixture.sources())
        try FileManager.default.removeItem(at: fixture.backupDirectory.appendingPathComponent("Manifest.plist"))
        let error = try #require(throws: MobileBackupError.self) { try BackupReader(directory: fixture.backupDirectory) }
        #expect(error.path == fixture.backupDirectory.standardizedFileURL.path + "/Manifest.plist")
        #expect(error.message.contains("no Manifest.plist"))
        #expect(!error.description.contains("SQLite error"))
    }

    /// Finding 15: errors name the backup's own Manifest.db, never a temporary copy.
    @Test func manifestErrorsNameTheBackupsOwnFile() throws {
        let fixture = try BackupFixture()
        try fixture.writer(password: "hunter2").backUp(fixture.sources())
        // A Manifest.db that decrypts (same key) but is not a database: re-encrypt garbage.
        let reader = try BackupReader(directory: fixture.backupDirectory, password: "hunter2")
        let database = fixture.backupDirectory.appendingPathComponent("Manifest.db")
        let manifest = try #require(try PropertyListValue.decode(Data(contentsOf: fixture.backupDirectory.appendingPathComponent("Manifest.plist"))).value.dictionaryValue)
        let manifestKey = try #require(manifest["ManifestKey"]?.dataValue)
        let key = try #require(reader.keys).unwrap(blob: manifestKey)
        try CBCStream.encrypt(Data(repeating: 0x41, count: 4096), key: key).write(to: database)
        let error = try #require(throws: MobileBackupError.self) {
            try BackupReader(directory: fixture.backupDirectory, password: "hunter2")
        }
        #expect(error.path == database.standardizedFileURL.path)
        #expect(!error.description.contains("sandbox-manifest-"))
    }

    /// Finding 15: a Manifest.db that is a directory is named as such.
    @Test func aManifestDatabaseThatIsADirectoryIsNotABackup() throws {
        let fixture = try BackupFixture()
        try fixture.writer().backUp(fixture.sources())
        let database = fixture.backupDirectory.appendingPathComponent("Manifest.db")
        try FileManager.default.removeItem(at: database)
        try FileManager.default.createDirectory(at: database, withIntermediateDirectories: false)
        let error = try #require(throws: MobileBackupError.self) { try BackupReader(directory: fixture.backupDirectory) }
        #expect(error.code == .notARegularFile)
        #expect(error.path == database.standardizedFileURL.path)
    }

    /// Finding 16: the decrypted manifest is 0600 in a private 0700 directory, which goes afterwards.
    @Test func theDecryptedManifestIsPrivateAndRemoved() throws {
        let scratch = try PrivateScratch()
        let directory = scratch.handle.path
        try scratch.write(Data("secret".utf8), "Manifest.db")
        let directoryMode = try #require(FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? NSNumber)
        let fileMode = try #require(FileManager.default.attributesOfItem(atPath: scratch.path("Manifest.db"))[.posixPermissions] as? NSNumber)
        #expect(directoryMode.intValue & 0o077 == 0)
        #expect(fileMode.intValue & 0o077 == 0)
        withExtendedLifetime(scratch) {}
        var released: PrivateScratch? = try PrivateScratch()
        let releasedPath = try #require(released).handle.path
        try released?.write(Data("secret".utf8), "Manifest.db")
        released = nil
        #expect(!FileManager.default.fileExists(atPath: releasedPath))
        _ = directory
    }

    /// Finding 19: a snapshot that is not finished is refused unless forced.
    @Test func anUnfinishedSnapshotIsRestoredOnlyWhenForced() throws {
        let fixture = try BackupFixture()
        try fixture.writer().backUp(fixture.sources())
        try HostileBackup.setKey("SnapshotState", to: .string("uploading"),
                                 in: fixture.backupDirectory.appendingPathComponent("Status.plist"))
        let reader = try BackupReader(directory: fixture.backupDirectory)
        let target = fixture.base.appendingPathComponent("group-out")
        let error = try #require(throws: MobileBackupError.self) {
            try BackupRestorer(reader).restoreGroup("group.com.example.possessions", into: target, layout: .testGroup)
        }
        #expect(error.code == .unfinishedBackup)
        #expect(error.message.contains("uploading"))
        #expect(!FileManager.default.fileExists(atPath: target.appendingPathComponent("shared.json").path))
        let report = try BackupRestorer(reader, force: true).restoreGroup("group.com.example.possessions", into: target, layout: .testGroup)
        #expect(report.restoredFiles == 1)
    }

    /// Finding 23: apps listed only in Info.plist's "Installed Applications" are shown.
    @Test func appsComeFromInfoPlistWhenManifestPlistLacksThem() throws {
        let fixture = try BackupFixture()
        try fixture.writer().backUp(fixture.sources())
        try HostileBackup.setKey("Applications", to: nil, in: fixture.backupDirectory.appendingPathComponent("Manifest.plist"))
        #expect(try BackupInfo.read(directory: fixture.backupDirectory).applications.map(\.bundleIdentifier) == [BackupFixture.bundleID])
        try FileManager.default.removeItem(at: fixture.backupDirectory.appendingPathComponent("Manifest.plist"))
        #expect(try BackupReader(directory: fixture.backupDirectory).info.applications.map(\.bundleIdentifier) == [BackupFixture.bundleID])
    }
}
