import Foundation
import Testing
@testable import MobileBackup

/// What our backup holds, in the oracle's terms: `domain/path` → (flags,
/// SHA-1 of the source bytes for files).
struct ExpectedBackup: Sendable {
    var rows: [String: (flags: Int, size: Int64, sha1: String?)]
    var readings: [String: BackupOracle.Reading]

    /// Writes the fixture's backup (plain or with `password`), changes,
    /// adds and removes a file and backs up again (an in-place incremental
    /// commit, the usual case), reads the result with our reader for the
    /// expected rows and with `tools`, then lets the fixture's directory go.
    static func make(password: String?, tools: [String]) throws -> ExpectedBackup {
        let fixture = try BackupFixture()
        try fixture.writer(password: password).backUp(fixture.sources())
        try fixture.write("Documents/possessions.data", Data("possessions archive, second version".utf8))
        try fixture.write("Documents/added.txt", Data("added".utf8))
        try FileManager.default.removeItem(at: fixture.container.appendingPathComponent("Library/Preferences/com.example.possessions.plist"))
        let second = try fixture.writer(password: password).backUp(fixture.sources())
        #expect(second.isIncremental)
        let reader = try BackupReader(directory: fixture.backupDirectory, password: password)
        var rows: [String: (flags: Int, size: Int64, sha1: String?)] = [:]
        for record in reader.records {
            let sha1 = record.kind == .file ? BackupOracle.sha1(try reader.contents(of: record)) : nil
            rows["\(record.domain)/\(record.relativePath)"] = (record.kind.rawValue, record.size, sha1)
        }
        // Our reader's bytes are the sources' bytes (checked by the round-trip tests); check a few here too.
        for path in ["Documents/possessions.data", "Documents/added.txt", "Documents/Photos/large.bin"] {
            #expect(rows["\(BackupFixture.appDomain)/\(path)"]?.sha1 == BackupOracle.sha1(try fixture.read(path)))
        }
        #expect(rows["\(BackupFixture.appDomain)/Library/Preferences/com.example.possessions.plist"] == nil)
        let readings = try BackupOracle.read(fixture.backupDirectory, password: password, tools: tools)
        return ExpectedBackup(rows: rows, readings: readings)
    }

    /// Checks that `tool` listed every row with its kind, and gave back every
    /// file's bytes when `withContent` (iOSbackup's 0-byte-folder quirk allowed where `allowsEmptyAsFolder`).
    func check(_ tool: String, withContent: Bool, allowsEmptyAsFolder: Bool = false) throws {
        let reading = try #require(readings[tool], "\(tool) did not run")
        #expect(reading.error == nil, "\(tool): \(reading.error ?? "")")
        #expect(Set(reading.files.keys) == Set(rows.keys), "\(tool) listed different rows")
        for (key, expected) in rows {
            guard let seen = reading.files[key] else { continue }
            #expect(seen.flags == expected.flags, "\(tool): \(key) flags \(seen.flags), expected \(expected.flags)")
            guard expected.flags == BackupFileKind.file.rawValue else { continue }
            if let size = seen.size { #expect(Int64(size) == expected.size, "\(tool): \(key) size") }
            guard withContent else { continue }
            if seen.folder && allowsEmptyAsFolder && expected.size == 0 { continue }
            #expect(seen.sha1 == expected.sha1, "\(tool): \(key) content differs")
        }
    }
}

/// iOSbackup, pyiosbackup and `mvt-ios check-backup` read our plain backup,
/// file contents included where the tool gives them. One backup, one Python
/// run (mvt is slow to start) for the whole suite.
@Suite struct PlainBackupOracleTests {
    static let shared = Result { try ExpectedBackup.make(password: nil, tools: ["iosbackup", "pyiosbackup", "mvt"]) }

    @Test func iOSbackupReadsIt() throws {
        // iOSbackup hands a 0-byte file of a plain backup back as a folder (notes §3, quirk b).
        try Self.shared.get().check("iosbackup", withContent: true, allowsEmptyAsFolder: true)
        let info = try #require(try Self.shared.get().readings["iosbackup"]?.info)
        #expect(info["name"] == "Test iPhone")
    }

    @Test func pyiosbackupReadsIt() throws {
        try Self.shared.get().check("pyiosbackup", withContent: true)
        #expect(try Self.shared.get().readings["pyiosbackup"]?.info["encrypted"] == "0")
    }

    @Test func mvtChecksIt() throws {
        // mvt lists rows (with sizes) but does not hand back contents.
        try Self.shared.get().check("mvt", withContent: false)
    }
}

/// iphone_backup_decrypt, pyiosbackup and iOSbackup decrypt our encrypted
/// backup, file contents included.
@Suite struct EncryptedBackupOracleTests {
    static let password = "correct horse"
    static let shared = Result {
        try ExpectedBackup.make(password: password, tools: ["iphone_backup_decrypt", "pyiosbackup", "iosbackup"])
    }

    @Test func iphoneBackupDecryptReadsIt() throws {
        try Self.shared.get().check("iphone_backup_decrypt", withContent: true)
    }

    @Test func pyiosbackupReadsIt() throws {
        try Self.shared.get().check("pyiosbackup", withContent: true)
    }

    @Test func iOSbackupReadsIt() throws {
        try Self.shared.get().check("iosbackup", withContent: true)
    }

    @Test func aWrongPasswordFailsInTheReaders() throws {
        let fixture = try BackupFixture()
        try fixture.writer(password: Self.password).backUp(fixture.sources())
        let readings = try BackupOracle.read(fixture.backupDirectory, password: "wrong", tools: ["iphone_backup_decrypt", "pyiosbackup"])
        for (tool, reading) in readings {
            #expect(reading.error != nil, "\(tool) accepted a wrong password")
        }
    }
}
