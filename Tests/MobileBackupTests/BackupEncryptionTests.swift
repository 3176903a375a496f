import Foundation
import Testing
@testable import MobileBackup

@Suite struct BackupEncryptionTests {
    @Test func encryptedBackupReadsBackWithThePassword() throws {
        let fixture = try BackupFixture()
        let summary = try fixture.writer(password: "hunter2").backUp(fixture.sources())
        #expect(summary.isEncrypted)

        let reader = try BackupReader(directory: fixture.backupDirectory, password: "hunter2")
        #expect(reader.info.isEncrypted)
        for path in BackupFixture.expectedAppFiles {
            let record = try #require(reader.record(domain: BackupFixture.appDomain, relativePath: path))
            let key = try #require(record.encryptionKey)
            #expect(key.count == 44)
            #expect(Int(key[key.startIndex]) == record.protectionClass.rawValue)
            #expect(try reader.contents(of: record) == fixture.read(path))
        }
        #expect(reader.verify().isClean)

        // Payloads and Manifest.db are ciphertext.
        let record = try #require(reader.record(domain: BackupFixture.appDomain, relativePath: "Documents/possessions.data"))
        let payload = try Data(contentsOf: fixture.backupDirectory.appendingPathComponent(BackupFileID.payloadPath(record.fileID)))
        #expect(payload.count == 32)
        #expect(try payload != fixture.read("Documents/possessions.data"))
        let database = try Data(contentsOf: fixture.backupDirectory.appendingPathComponent("Manifest.db"))
        #expect(!database.starts(with: Data("SQLite format 3".utf8)))
        #expect(database.count % 16 == 0)
    }

    @Test func wrongOrMissingPasswordIsATypedError() throws {
        let fixture = try BackupFixture()
        try fixture.writer(password: "hunter2").backUp(fixture.sources())
        let wrong = try #require(throws: MobileBackupError.self) { try BackupReader(directory: fixture.backupDirectory, password: "hunter3") }
        #expect(wrong.code == .wrongPassword)
        let missing = try #require(throws: MobileBackupError.self) { try BackupReader(directory: fixture.backupDirectory) }
        #expect(missing.code == .passwordRequired)
    }

    @Test func encryptedBackupsAreIncremental() throws {
        let fixture = try BackupFixture()
        let writer = fixture.writer(password: "hunter2")
        try writer.backUp(fixture.sources())
        try fixture.write("Documents/possessions.data", Data("edited".utf8))
        let second = try writer.backUp(fixture.sources())
        // The edited file, plus the in-memory keychain export (always rewritten when encrypted).
        #expect(second.payloadsCopied == 2)
        #expect(second.payloadsReused == 5)
        let reader = try BackupReader(directory: fixture.backupDirectory, password: "hunter2")
        #expect(reader.verify().isClean)
        let record = try #require(reader.record(domain: BackupFixture.appDomain, relativePath: "Documents/possessions.data"))
        #expect(try reader.contents(of: record) == Data("edited".utf8))
    }

    @Test func damagedCiphertextIsReported() throws {
        let fixture = try BackupFixture()
        try fixture.writer(password: "hunter2").backUp(fixture.sources())
        let reader = try BackupReader(directory: fixture.backupDirectory, password: "hunter2")
        let record = try #require(reader.record(domain: BackupFixture.appDomain, relativePath: "Library/Application Support/block.bin"))
        let url = fixture.backupDirectory.appendingPathComponent(BackupFileID.payloadPath(record.fileID))
        var bytes = try Data(contentsOf: url)
        bytes[bytes.count - 1] ^= 0x55  // breaks the padding block
        try bytes.write(to: url)
        let problems = reader.verify().problems
        #expect(problems.map(\.relativePath) == ["Library/Application Support/block.bin"])
        #expect(problems.first.map { [.undecryptable, .digestMismatch].contains($0.kind) } == true)
    }
}
