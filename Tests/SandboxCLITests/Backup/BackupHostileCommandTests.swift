import Foundation
import MobileBackup
import PropertyList
import TestSupport
import Testing

/// `sandbox backup` on hostile and odd backups (issue 14): read-only
/// commands write nothing, errors are short sentences naming the backup's
/// own files, temporaries never outlive a command, and an unfinished
/// snapshot is restored only with --force.
@Suite struct BackupHostileCommandTests {
    private func run(_ arguments: [String], in directory: TemporaryDirectory, temporary: URL? = nil) throws -> SandboxProcess.Result {
        var environment = ["SANDBOX_HOME": directory.url.appendingPathComponent("home").path]
        if let temporary { environment["TMPDIR"] = temporary.path }
        return try SandboxProcess.run(arguments, in: directory.url, subcommand: "backup", environment: environment)
    }

    /// A backup of one app with `count` files under `<directory>/<name>/<udid>`.
    private func backup(in directory: TemporaryDirectory, name: String = "backups", password: String? = nil,
                        udid: String = "00008110-00CLI0000000002E") throws -> URL {
        let app = directory.url.appendingPathComponent("app-" + name)
        try FileManager.default.createDirectory(at: app.appendingPathComponent("Documents"), withIntermediateDirectories: true)
        try Data("hello".utf8).write(to: app.appendingPathComponent("Documents/hello.txt"))
        let device = BackupDeviceInfo(udid: udid, deviceName: "CLI iPhone")
        let backup = directory.url.appendingPathComponent(name).appendingPathComponent(udid)
        try FileManager.default.createDirectory(at: backup.deletingLastPathComponent(), withIntermediateDirectories: true)
        let options = BackupOptions(password: password, keyDerivation: BackupKeyDerivation(doubleProtectionIterations: 1_000, iterations: 1_000),
                                    flushesToDisk: false)
        try BackupWriter(directory: backup, device: device,
                         applications: [BackupApplication(bundleIdentifier: "com.example.cli", version: "1", path: "/x/CLI.app")],
                         options: options)
            .backUp([BackupDomainSource(domain: "AppDomain-com.example.cli", root: app)])
        return backup
    }

    /// A Status.plist saying the snapshot is still uploading.
    private func markUploading(_ backup: URL) throws {
        let status: PropertyListValue = ["SnapshotState": .string("uploading"), "IsFullBackup": .bool(true), "Version": .string("3.3")]
        try status.encoded(as: .binary).write(to: backup.appendingPathComponent("Status.plist"))
    }

    /// Finding 1: info, verify and extract of a backup with a planted commit
    /// (journal, incoming payloads, a bucket linked outside) change nothing.
    @Test func readOnlyCommandsLeaveAHostileBackupAndTheOutsideAlone() throws {
        let directory = try TemporaryDirectory()
        let backup = try backup(in: directory)
        let outside = directory.url.appendingPathComponent("outside")
        let used = Set(try FileManager.default.contentsOfDirectory(atPath: backup.path))
        let prefix = try #require(["ab", "cd", "ef", "01", "23"].first { !used.contains($0) })
        let fileID = prefix + String(repeating: "7", count: 38)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("victim".utf8).write(to: outside.appendingPathComponent(fileID))
        try FileManager.default.createSymbolicLink(at: backup.appendingPathComponent(prefix), withDestinationURL: outside)
        let incoming = backup.appendingPathComponent("Sandbox.incoming")
        try FileManager.default.createDirectory(at: incoming, withIntermediateDirectories: true)
        try Data("attacker".utf8).write(to: incoming.appendingPathComponent(prefix + String(repeating: "8", count: 38)))
        try Data(fileID.utf8).write(to: incoming.appendingPathComponent("Sandbox.commit"))
        let outsideBefore = try TreeSnapshot.take(outside)
        let backupBefore = try TreeSnapshot.take(backup)

        #expect(try run(["info", backup.path], in: directory).status == 0)
        #expect(try run(["verify", backup.path], in: directory).status == 0)
        let extracted = try run(["extract", backup.path, "com.example.cli", "out"], in: directory)
        #expect(extracted.status == 0, "\(extracted.standardError)")
        #expect(try TreeSnapshot.take(outside) == outsideBefore)
        #expect(try TreeSnapshot.take(backup) == backupBefore)
    }

    /// Finding 24: an unknown domain gives the count and the closest names, on one short line.
    @Test func anUnknownDomainGivesTheClosestMatchesNotAllDomains() throws {
        let directory = try TemporaryDirectory()
        let backup = try backup(in: directory)
        let missing = try run(["extract", backup.path, "com.example.clj", "out"], in: directory)
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("has 1 domain;"))
        #expect(missing.standardError.contains("AppDomain-com.example.cli"))
        #expect(missing.standardError.contains("backup info"))
        #expect(missing.standardError.split(separator: "\n").allSatisfy { $0.count < 400 })
    }

    /// Finding 24: a non-backup and a folder of two backups are sentences of the command's own.
    @Test func notABackupAndTwoBackupsAreSentences() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.url.appendingPathComponent("files"), withIntermediateDirectories: true)
        let none = try run(["info", "files"], in: directory)
        #expect(none.status == 1)
        #expect(none.standardError.contains("files is not a backup"))
        #expect(!none.standardError.contains("notABackup ("))

        _ = try backup(in: directory, name: "two", udid: "00008110-00CLI000000000AA")
        _ = try backup(in: directory, name: "two", udid: "00008110-00CLI000000000BB")
        let two = try run(["info", directory.url.appendingPathComponent("two").path], in: directory)
        #expect(two.status == 1)
        #expect(two.standardError.contains("holds 2 backups"))
        #expect(two.standardError.contains("00008110-00CLI000000000AA"))
        #expect(!two.standardError.contains("Usage:"))
        #expect(!two.standardError.lowercased().contains("usage: sandbox <"))
    }

    /// Finding 24: verify names damaged payloads without saying it did not write them.
    @Test func verifyDoesNotSayItWroteNothing() throws {
        let directory = try TemporaryDirectory()
        let backup = try backup(in: directory)
        let reader = try BackupReader(directory: backup)
        let record = try #require(reader.record(domain: "AppDomain-com.example.cli", relativePath: "Documents/hello.txt"))
        try Data("HELLO".utf8).write(to: backup.appendingPathComponent(BackupFileID.payloadPath(record.fileID)))
        let verify = try run(["verify", backup.path], in: directory)
        #expect(verify.status == 1)
        #expect(verify.output.contains("1 damaged"))
        #expect(!verify.output.contains("not written out"))
    }

    /// Findings 15 and 16: errors name the backup's Manifest.db, and no
    /// temporary outlives the command, on success or failure.
    @Test func noTemporaryOutlivesACommandAndErrorsNameTheBackup() throws {
        let directory = try TemporaryDirectory()
        let temporary = directory.url.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let encrypted = try backup(in: directory, name: "locked", password: "pw")
        let info = try run(["info", encrypted.path, "--password", "pw"], in: directory, temporary: temporary)
        #expect(info.status == 0, "\(info.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)

        try FileManager.default.removeItem(at: encrypted.appendingPathComponent("Manifest.plist"))
        let noPlist = try run(["info", encrypted.path, "--password", "pw"], in: directory, temporary: temporary)
        #expect(noPlist.status == 1)
        #expect(noPlist.standardError.contains("Manifest.plist"))
        #expect(!noPlist.standardError.contains("SQLite error"))

        let plain = try backup(in: directory, name: "plain")
        let database = plain.appendingPathComponent("Manifest.db")
        try Data("not a database, not at all, not even close".utf8).write(to: database)
        for command in ["info", "verify"] {
            let failed = try run([command, plain.path], in: directory, temporary: temporary)
            #expect(failed.status == 1)
            #expect(failed.standardError.contains(database.standardizedFileURL.path))
            #expect(!failed.standardError.contains(temporary.path))
        }
        try FileManager.default.removeItem(at: database)
        try FileManager.default.createDirectory(at: database, withIntermediateDirectories: false)
        #expect(try run(["verify", plain.path], in: directory, temporary: temporary).status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
    }

    /// Finding 23: apps listed only in Info.plist (no Manifest.plist, as in many real backups) show in info.
    @Test func appsFromInfoPlistAreShown() throws {
        let directory = try TemporaryDirectory()
        let backup = try backup(in: directory)
        try FileManager.default.removeItem(at: backup.appendingPathComponent("Manifest.plist"))
        let info = try run(["info", backup.path], in: directory)
        #expect(info.output.contains("Apps:       com.example.cli"))
    }

    /// Finding 19: restore refuses an unfinished snapshot, and --force restores it.
    @Test func restoreRefusesAnUnfinishedSnapshotUnlessForced() throws {
        let home = try DeviceCommandTests.Home()
        #expect(try home.run(["device", "create", "phone"]).status == 0)
        #expect(try home.run(["install", try home.bundle(), "--device", "phone"]).status == 0)
        let created = try home.run(["backup", "create", "--device", "phone", "--json"])
        #expect(created.status == 0, "\(created.standardError)")
        let path = try #require(try PropertyListValue.decode(created.standardOutput, as: .json)["path"]?.stringValue)
        try markUploading(URL(fileURLWithPath: path))
        let refused = try home.run(["backup", "restore", path, "--to-device", "phone"])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("uploading"))
        #expect(refused.standardError.contains("--force"))
        let forced = try home.run(["backup", "restore", path, "--to-device", "phone", "--force"])
        #expect(forced.status == 0, "\(forced.standardError)")
    }
}
