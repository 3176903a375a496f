import Container
import Device
import Foundation
import Testing
@testable import MobileBackup

/// Restoring the sample backups of another writer (shaped like iTunes' and
/// Finder's), including ones that lack Manifest.plist and Status.plist.
@Suite struct ForeignBackupRestoreTests {
    static let notes = "com.example.notes"

    /// A copy of a shared sample in the fixture's scratch area, without `dropping` files.
    static func copy(_ variant: String, into fixture: BackupFixture, dropping: [String] = []) throws -> URL {
        let source = BackupFixtureTests.directory(variant)
        let target = fixture.base.appendingPathComponent(variant).appendingPathComponent(BackupFixture.fixtureUDID)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: source, to: target)
        _ = try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: target.path)
        for name in dropping { try FileManager.default.removeItem(at: target.appendingPathComponent(name)) }
        return target
    }

    func checkNotes(_ container: AppContainer, _ report: RestoreReport) throws {
        #expect(report.isClean)
        #expect(report.restoredFiles == 4)
        #expect(try container.read("Documents/note.txt").count == 21)
        #expect(try container.read("Documents/empty.txt").isEmpty)
        #expect(try container.read("Library/Application Support/db.sqlite").count == 70_000)
        #expect(try container.contentsOfDirectory("Library/Caches").isEmpty)
    }

    @Test func restoresAPlainSampleWithoutManifestOrStatusPlist() throws {
        let fixture = try BackupFixture()
        let directory = try Self.copy("unencrypted", into: fixture, dropping: ["Manifest.plist", "Status.plist"])
        let reader = try BackupReader(directory: directory)
        #expect(!reader.info.hasManifestPlist && !reader.info.hasStatusPlist)
        let container = try AppContainer.create(at: fixture.base.appendingPathComponent("notes"))
        try checkNotes(container, try BackupRestorer(reader).restoreApp(bundleID: Self.notes, into: container))
    }

    @Test func restoresTheEncryptedSample() throws {
        let fixture = try BackupFixture()
        let reader = try BackupReader(directory: BackupFixtureTests.directory("encrypted_pw_test1234"), password: "test1234")
        let container = try AppContainer.create(at: fixture.base.appendingPathComponent("notes"))
        let restorer = BackupRestorer(reader)
        try checkNotes(container, try restorer.restoreApp(bundleID: Self.notes, into: container))
        let group = fixture.base.appendingPathComponent("group")
        let report = try restorer.restoreGroup("group.com.example.notes", into: group, layout: .testGroup)
        #expect(report.restoredFiles == 1)
        #expect(FileManager.default.fileExists(atPath: group.appendingPathComponent("shared.json").path))
    }
}
