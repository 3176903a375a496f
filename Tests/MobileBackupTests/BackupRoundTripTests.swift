import Foundation
import PropertyList
import Testing
@testable import MobileBackup

@Suite struct BackupRoundTripTests {
    @Test func fileIDIsSHA1OfDomainAndPath() {
        // The example in the notes (§1.2): a real HomeDomain file.
        #expect(BackupFileID.make(domain: "HomeDomain", relativePath: "Library/SMS/sms.db") == "3d0d7e5fb2ce288813306e4d4636395e047a3d28")
        #expect(BackupFileID.payloadPath("3d0d7e5fb2ce288813306e4d4636395e047a3d28") == "3d/3d0d7e5fb2ce288813306e4d4636395e047a3d28")
    }

    @Test func plainBackupReadsBack() throws {
        let fixture = try BackupFixture()
        let summary = try fixture.writer().backUp(fixture.sources())
        #expect(!summary.isEncrypted)
        #expect(summary.payloadsCopied == 7)
        #expect(summary.payloadsReused == 0)

        let reader = try BackupReader(directory: fixture.backupDirectory)
        #expect(reader.info.snapshotState == "finished")
        #expect(reader.info.writtenBySandbox)
        #expect(reader.info.device.udid == fixture.device.udid)
        #expect(reader.info.applications.map(\.bundleIdentifier) == [BackupFixture.bundleID])
        #expect(reader.domains == ["AppDomain-com.example.possessions", "AppDomainGroup-group.com.example.possessions", "KeychainDomain"])
        for path in BackupFixture.expectedAppFiles {
            let record = try #require(reader.record(domain: BackupFixture.appDomain, relativePath: path))
            #expect(record.kind == .file)
            #expect(record.protectionClass == .completeUntilFirstUserAuthentication)
            #expect(try reader.contents(of: record) == fixture.read(path))
            #expect(FileManager.default.fileExists(atPath: fixture.backupDirectory.appendingPathComponent(BackupFileID.payloadPath(record.fileID)).path))
        }
        let root = try #require(reader.record(domain: BackupFixture.appDomain, relativePath: ""))
        #expect(root.kind == .directory)
        let link = try #require(reader.record(domain: BackupFixture.appDomain, relativePath: "Documents/latest"))
        #expect(link.kind == .symbolicLink)
        #expect(link.target == "possessions.data")
        let keychain = try #require(reader.record(domain: "KeychainDomain", relativePath: "keychain-backup.plist"))
        #expect(try reader.contents(of: keychain) == Data("keychain export".utf8))
        // Caches and tmp are not backed up, not even as directories.
        let paths = reader.records(inDomain: BackupFixture.appDomain).map(\.relativePath)
        #expect(!paths.contains { $0.hasPrefix("Library/Caches") || $0.hasPrefix("tmp") })
        #expect(reader.verify().isClean)
    }

    @Test func mbFileArchiveHasIOSShape() throws {
        let fixture = try BackupFixture()
        try fixture.writer().backUp(fixture.sources())
        let rows = try ManifestDatabase.rows(at: fixture.backupDirectory.appendingPathComponent("Manifest.db").path)
        let row = try #require(rows.first { $0.relativePath == "Documents/possessions.data" })
        #expect(row.flags == 1)
        #expect(row.fileID == BackupFileID.make(domain: row.domain, relativePath: row.relativePath))
        let archive = try PropertyListValue(data: try #require(row.file))
        let objects = try #require(archive["$objects"]?.arrayValue)
        // mvt reads $objects[1] directly as the MBFile dictionary.
        let mbFile = try #require(objects[1].dictionaryValue)
        for key in ["Size", "Mode", "Birth", "LastModified", "LastStatusChange", "InodeNumber", "UserID", "GroupID", "Flags", "ProtectionClass", "RelativePath", "Digest"] {
            #expect(mbFile[key] != nil, "MBFile lacks \(key)")
        }
        #expect(mbFile["Size"]?.int64Value == 19)
        #expect(mbFile["Mode"]?.int64Value.map { $0 & 0o170000 } == 0o100000)
    }

    @Test func extractsADomain() throws {
        let fixture = try BackupFixture()
        try fixture.writer().backUp(fixture.sources())
        let reader = try BackupReader(directory: fixture.backupDirectory)
        let output = fixture.base.appendingPathComponent("extracted")
        let report = try reader.extract(domain: BackupFixture.appDomain, to: output)
        #expect(report.isClean)
        #expect(report.verifiedFiles == BackupFixture.expectedAppFiles.count)
        for path in BackupFixture.expectedAppFiles {
            #expect(try Data(contentsOf: output.appendingPathComponent(path)) == fixture.read(path))
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: output.appendingPathComponent("Documents/latest").path) == "possessions.data")
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("Library/Caches").path))
        #expect(throws: MobileBackupError.self) { try reader.extract(domain: "AppDomain-missing", to: output) }
    }

    @Test func notABackupIsATypedError() throws {
        let fixture = try BackupFixture()
        let error = try #require(throws: MobileBackupError.self) { try BackupReader(directory: fixture.container) }
        #expect(error.code == .notABackup)
    }
}
