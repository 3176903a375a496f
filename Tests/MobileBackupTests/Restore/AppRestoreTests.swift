import Container
import Device
import Foundation
import Testing
@testable import MobileBackup

/// Restoring app and group domains into containers: a full restore.
@Suite struct AppRestoreTests {
    /// A fresh container with the standard layout and things a restore must clear.
    static func dirtyContainer(_ fixture: BackupFixture, name: String = "restored") throws -> AppContainer {
        let container = try AppContainer.create(at: fixture.base.appendingPathComponent(name), bundleName: "Possessions")
        for (path, text) in [("Documents/stale.txt", "stale"), ("Library/Caches/old.cache", "cache"), ("tmp/old.tmp", "tmp"),
                             ("Possessions.app/Info.plist", "bundle")] {
            let url = container.root.appendingPathComponent(path)
            try Data(text.utf8).write(to: url)
        }
        return container
    }

    @Test func restoresDocumentsAndLibraryAndEmptiesCachesAndTmp() throws {
        let fixture = try BackupFixture()
        try fixture.writer().backUp(fixture.sources())
        let container = try Self.dirtyContainer(fixture)
        let restorer = BackupRestorer(try BackupReader(directory: fixture.backupDirectory))
        #expect(restorer.bundleIDs == [BackupFixture.bundleID])
        let report = try restorer.restoreApp(bundleID: BackupFixture.bundleID, into: container)
        #expect(report.isClean)
        #expect(report.domains == [BackupFixture.appDomain])
        #expect(report.restoredFiles == BackupFixture.expectedAppFiles.count)
        for path in BackupFixture.expectedAppFiles {
            #expect(try container.read(path) == fixture.read(path))
        }
        let files = FileManager.default
        #expect(try files.destinationOfSymbolicLink(atPath: container.root.appendingPathComponent("Documents/latest").path) == "possessions.data")
        #expect(!container.fileExists("Documents/stale.txt"))
        #expect(try container.contentsOfDirectory("Library/Caches").isEmpty)
        #expect(try container.contentsOfDirectory("tmp").isEmpty)
        #expect(container.fileExists("Library/Preferences"))
        // The bundle is not app data and is left alone.
        #expect(try Data(contentsOf: container.root.appendingPathComponent("Possessions.app/Info.plist")) == Data("bundle".utf8))
    }

    @Test func restoresAGroupDomain() throws {
        let fixture = try BackupFixture()
        try fixture.writer().backUp(fixture.sources())
        let target = fixture.base.appendingPathComponent("group-restored")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: target.appendingPathComponent("old.json"))
        let restorer = BackupRestorer(try BackupReader(directory: fixture.backupDirectory))
        #expect(restorer.groupIDs == ["group.com.example.possessions"])
        let report = try restorer.restoreGroup("group.com.example.possessions", into: target, layout: .testGroup)
        #expect(report.isClean)
        #expect(try Data(contentsOf: target.appendingPathComponent("shared.json")) == Data("{\"shared\":true}".utf8))
        #expect(!FileManager.default.fileExists(atPath: target.appendingPathComponent("old.json").path))
    }

    @Test func corruptAndTruncatedPayloadsAreReportedAndNeverRestored() throws {
        let fixture = try BackupFixture()
        try fixture.writer().backUp(fixture.sources())
        let reader = try BackupReader(directory: fixture.backupDirectory)
        func payload(_ path: String) throws -> URL { try fixture.payload(path, in: reader) }
        // One payload altered in place (same size: only the digest notices), one cut short.
        let corrupt = try payload("Documents/Photos/large.bin")
        var bytes = try Data(contentsOf: corrupt)
        bytes[1000] ^= 0xFF
        try bytes.write(to: corrupt)
        let truncated = try payload("Library/Application Support/block.bin")
        try Data(try Data(contentsOf: truncated).prefix(4096)).write(to: truncated)

        let container = try Self.dirtyContainer(fixture)
        let report = try BackupRestorer(reader).restoreApp(bundleID: BackupFixture.bundleID, into: container)
        let problems = Dictionary(uniqueKeysWithValues: report.problems.map { ($0.relativePath, $0.kind) })
        #expect(problems == ["Documents/Photos/large.bin": .digestMismatch, "Library/Application Support/block.bin": .truncated])
        #expect(!container.fileExists("Documents/Photos/large.bin"))
        #expect(!container.fileExists("Library/Application Support/block.bin"))
        #expect(report.restoredFiles == BackupFixture.expectedAppFiles.count - 2)
        #expect(try container.read("Documents/possessions.data") == fixture.read("Documents/possessions.data"))
        // No partial file is left anywhere in the container.
        let leftovers = FileManager.default.enumerator(atPath: container.root.path)?.compactMap { $0 as? String }
            .filter { $0.contains("sandbox-partial") || $0.contains("sandbox-restore") } ?? []
        #expect(leftovers.isEmpty)
    }

    @Test func cachesAndTmpRowsOfAForeignBackupAreSkipped() throws {
        let fixture = try BackupFixture()
        // A backup that (unlike iOS's) holds Caches and tmp rows.
        try fixture.writer().backUp([BackupDomainSource(domain: BackupFixture.appDomain, root: fixture.container)])
        let container = try Self.dirtyContainer(fixture)
        let report = try BackupRestorer(try BackupReader(directory: fixture.backupDirectory))
            .restoreApp(bundleID: BackupFixture.bundleID, into: container)
        #expect(report.skippedPaths.contains("\(BackupFixture.appDomain)/Library/Caches/thumbnail.cache"))
        #expect(report.skippedPaths.contains("\(BackupFixture.appDomain)/tmp/upload.tmp"))
        #expect(try container.contentsOfDirectory("Library/Caches").isEmpty)
        #expect(try container.contentsOfDirectory("tmp").isEmpty)
    }

    @Test func aMissingDomainIsATypedError() throws {
        let fixture = try BackupFixture()
        try fixture.writer().backUp(fixture.sources())
        let container = try Self.dirtyContainer(fixture)
        let error = try #require(throws: MobileBackupError.self) {
            try BackupRestorer(try BackupReader(directory: fixture.backupDirectory)).restoreApp(bundleID: "com.example.absent", into: container)
        }
        #expect(error.code == .notFound)
    }
}
