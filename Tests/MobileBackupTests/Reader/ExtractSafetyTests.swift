import Foundation
import Testing
@testable import MobileBackup

/// A backup whose rows try to lead extraction outside its destination.
@Suite struct ExtractSafetyTests {
    @Test func aLinkRowCannotCarryFilesOutside() throws {
        let fixture = try BackupFixture()
        try fixture.write("Documents/x/evil.txt", Data("evil".utf8))
        try fixture.writer().backUp([BackupDomainSource(domain: BackupFixture.appDomain, root: fixture.container)])
        // Turn the directory row Documents/x into a link to a directory outside.
        let outside = fixture.base.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let link = BackupFileRecord(domain: BackupFixture.appDomain, relativePath: "Documents/x", kind: .symbolicLink,
                                    mode: 0o120755, target: outside.path)
        try ManifestDatabase.update(at: fixture.backupDirectory.appendingPathComponent("Manifest.db").path,
                                    rows: [ManifestRow(fileID: link.fileID, domain: link.domain, relativePath: link.relativePath,
                                                       flags: BackupFileKind.symbolicLink.rawValue, file: try link.archived())],
                                    deleting: [])
        let reader = try BackupReader(directory: fixture.backupDirectory)
        #expect(reader.record(domain: BackupFixture.appDomain, relativePath: "Documents/x")?.kind == .symbolicLink)

        let destination = fixture.base.appendingPathComponent("extracted")
        let report = try reader.extract(domain: BackupFixture.appDomain, to: destination)
        #expect(!FileManager.default.fileExists(atPath: outside.appendingPathComponent("evil.txt").path))
        #expect(report.problems.map(\.relativePath) == ["Documents/x"])
        #expect(report.problems.first?.kind == .unsafePath)
        #expect(FileManager.default.fileExists(atPath: destination.appendingPathComponent("Documents/x/evil.txt").path))
    }
}
