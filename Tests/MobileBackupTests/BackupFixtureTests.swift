import Foundation
import Testing
@testable import MobileBackup

/// The sample backups in `../shared/fixtures/backup/`, written by an
/// independent Python writer that all four Python readers accept.
@Suite struct BackupFixtureTests {
    static func directory(_ variant: String) -> URL {
        BackupFixture.sharedBackups.appendingPathComponent(variant).appendingPathComponent(BackupFixture.fixtureUDID)
    }

    func check(_ reader: BackupReader) throws {
        #expect(reader.records.count == 13)
        #expect(reader.domains == ["AppDomain-com.example.notes", "AppDomainGroup-group.com.example.notes", "HomeDomain"])
        #expect(reader.info.device.deviceName == "Synthetic iPhone")
        #expect(reader.info.snapshotState == "finished")
        #expect(!reader.info.writtenBySandbox)
        let note = try #require(reader.record(domain: "AppDomain-com.example.notes", relativePath: "Documents/note.txt"))
        #expect(note.size == 21)
        #expect(try reader.contents(of: note).count == 21)
        let link = try #require(reader.record(domain: "AppDomain-com.example.notes", relativePath: "Documents/link"))
        #expect(link.target == "/var/mobile/Containers/Data/Application/X/Documents/note.txt")
        let report = reader.verify()
        #expect(report.isClean)
        #expect(report.verifiedFiles == 6)
    }

    @Test func readsThePlainSample() throws {
        let reader = try BackupReader(directory: Self.directory("unencrypted"))
        #expect(!reader.info.isEncrypted)
        try check(reader)
    }

    @Test func readsTheEncryptedSample() throws {
        let directory = Self.directory("encrypted_pw_test1234")
        let reader = try BackupReader(directory: directory, password: "test1234")
        #expect(reader.info.isEncrypted)
        try check(reader)
        let plain = try BackupReader(directory: Self.directory("unencrypted"))
        // The two samples hold the same files, except db.sqlite, random bytes drawn separately for each.
        for record in plain.records where record.kind == .file {
            let encrypted = try #require(reader.record(domain: record.domain, relativePath: record.relativePath))
            let contents = try reader.contents(of: encrypted)
            if record.relativePath.hasSuffix("db.sqlite") {
                #expect(contents.count == 70_000)
            } else {
                #expect(contents == (try plain.contents(of: record)))
            }
        }
        let wrong = try #require(throws: MobileBackupError.self) { try BackupReader(directory: directory, password: "nope") }
        #expect(wrong.code == .wrongPassword)
        let missing = try #require(throws: MobileBackupError.self) { try BackupReader(directory: directory) }
        #expect(missing.code == .passwordRequired)
    }

    @Test func extractsFromTheSample() throws {
        let fixture = try BackupFixture()
        let reader = try BackupReader(directory: Self.directory("unencrypted"))
        let report = try reader.extract(domain: "AppDomain-com.example.notes", to: fixture.base.appendingPathComponent("notes"))
        #expect(report.isClean)
        #expect(FileManager.default.fileExists(atPath: fixture.base.appendingPathComponent("notes/Library/Application Support/db.sqlite").path))
    }
}
