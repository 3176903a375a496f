import FileSystem
import Foundation
import Testing
@testable import MobileBackup

/// Rows a hostile backup may hold: unsafe paths, links over layout
/// directories, setuid modes. A restore refuses and reports them.
@Suite struct RestoreSafetyTests {
    static func row(_ record: BackupFileRecord) throws -> ManifestRow {
        ManifestRow(fileID: record.fileID, domain: record.domain, relativePath: record.relativePath,
                    flags: record.kind.rawValue, file: try record.archived())
    }

    @Test func unsafeRowsAreRefusedAndModesAreMasked() throws {
        let fixture = try BackupFixture()
        try fixture.writer().backUp(fixture.sources())
        let outside = fixture.base.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let domain = BackupFixture.appDomain
        let before = try BackupReader(directory: fixture.backupDirectory)
        var setuid = try #require(before.record(domain: domain, relativePath: "Documents/possessions.data"))
        setuid.mode = 0o106444  // setuid, setgid, read-only
        var sticky = try #require(before.record(domain: domain, relativePath: "Documents"))
        sticky.mode = 0o41500  // sticky, owner may not write
        let rows = [
            BackupFileRecord(domain: domain, relativePath: "", kind: .file, mode: 0o100644),
            BackupFileRecord(domain: domain, relativePath: "/Documents/absolute.txt", kind: .file, mode: 0o100644),
            BackupFileRecord(domain: domain, relativePath: "Documents/../../escape.txt", kind: .file, mode: 0o100644),
            BackupFileRecord(domain: domain, relativePath: "Library/Preferences", kind: .symbolicLink, mode: 0o120755, target: outside.path),
            setuid, sticky,
        ]
        try ManifestDatabase.update(at: fixture.backupDirectory.appendingPathComponent("Manifest.db").path,
                                    rows: try rows.map(Self.row), deleting: [])
        let container = try AppRestoreTests.dirtyContainer(fixture)
        let handle = try DirectoryHandle(openingAt: container.root.path)
        let report = try BackupRestorer(try BackupReader(directory: fixture.backupDirectory))
            .restoreApp(bundleID: BackupFixture.bundleID, into: handle, layout: .testApp)

        let refused = Set(report.problems.filter { $0.kind == .unsafePath }.map(\.relativePath))
        #expect(refused == ["", "Documents/../../escape.txt", "Library/Preferences"])
        // The absolute row is outside Documents and Library: left out by rule.
        #expect(report.skippedPaths.contains("\(domain)//Documents/absolute.txt"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: fixture.base.appendingPathComponent("escape.txt").path))
        let preferences = try #require(try FileSystemPaths.status(atPath: container.root.appendingPathComponent("Library/Preferences").path))
        #expect(preferences.isDirectory)

        let file = try #require(try FileSystemPaths.status(atPath: container.root.appendingPathComponent("Documents/possessions.data").path))
        #expect(file.permissions == 0o644)
        let documents = try #require(try FileSystemPaths.status(atPath: container.root.appendingPathComponent("Documents").path))
        #expect(documents.permissions == 0o700)
        #expect(try container.read("Documents/possessions.data") == fixture.read("Documents/possessions.data"))
    }
}
