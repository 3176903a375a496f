import Foundation
import Testing
@testable import MobileBackup

/// Issue 29, finding 16: a backup whose Info.plist (or Manifest.plist,
/// Status.plist, Manifest.db) is a one-hop relative symbolic link, or a
/// FIFO, is refused with an error that says what was refused and where,
/// never followed, never opened (a FIFO would block) and never changed.
@Suite(.timeLimit(.minutes(10))) struct BackupOwnFilesTests {
    static let ownFiles = ["Info.plist", "Manifest.plist", "Status.plist", "Manifest.db"]

    /// A backup of the fixture with `name` moved aside to `name.real` and
    /// replaced by `plant` (given the file's URL).
    private func backup(replacing name: String, with plant: (URL) throws -> Void) throws -> BackupFixture {
        let fixture = try BackupFixture()
        try fixture.writer().backUp(fixture.sources())
        let file = fixture.backupDirectory.appendingPathComponent(name)
        try FileManager.default.moveItem(at: file, to: fixture.backupDirectory.appendingPathComponent(name + ".real"))
        try plant(file)
        return fixture
    }

    /// The error of `body`, which must fail with a MobileBackupError.
    private func refusal(_ body: () throws -> Void) throws -> MobileBackupError {
        do {
            try body()
        } catch let error as MobileBackupError {
            return error
        }
        Issue.record("no error was thrown")
        throw MobileBackupError(.notFound, "no error")
    }

    @Test(arguments: ownFiles) func aRelativeLinkIsRefusedByName(_ name: String) throws {
        let fixture = try backup(replacing: name) { file in
            // One hop, relative, to the real file beside it: following it would work.
            try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: name + ".real")
        }
        let path = fixture.backupDirectory.path + "/" + name
        for error in [try refusal { _ = try BackupInfo.read(directory: fixture.backupDirectory) },
                      try refusal { _ = try BackupReader(directory: fixture.backupDirectory) }] {
            #expect(error.code == .notARegularFile, "\(error)")
            #expect(error.path == path)
            #expect(error.message.contains("\(name) is a symbolic link; a backup's files must be regular files"), "\(error.message)")
            #expect(!error.message.contains("Too many levels"))
        }
        // Nothing was followed or changed: the link is still a link to the real file.
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == name + ".real")
    }

    @Test(arguments: ownFiles) func aFIFOIsRefusedWithoutBlocking(_ name: String) throws {
        let fixture = try backup(replacing: name) { file in
            #expect(mkfifo(file.path, 0o600) == 0)
        }
        let started = Date()
        for error in [try refusal { _ = try BackupInfo.read(directory: fixture.backupDirectory) },
                      try refusal { _ = try BackupReader(directory: fixture.backupDirectory) }] {
            #expect(error.code == .notARegularFile, "\(error)")
            #expect(error.path == fixture.backupDirectory.path + "/" + name)
            #expect(error.message.contains("\(name) is a FIFO"), "\(error.message)")
        }
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func aDirectoryInPlaceOfAPlistSaysSo() throws {
        let fixture = try backup(replacing: "Status.plist") { file in
            try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        }
        let error = try refusal { _ = try BackupInfo.read(directory: fixture.backupDirectory) }
        #expect(error.code == .notARegularFile)
        #expect(error.message.contains("Status.plist is a directory"))
    }
}
