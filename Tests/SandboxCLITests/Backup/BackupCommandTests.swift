import Foundation
import MobileBackup
import TestSupport
import Testing

/// `sandbox backup list|info|verify|extract`, run as the built executable,
/// on the shared samples and on a backup this module wrote.
@Suite struct BackupCommandTests {
    static let samples = SandboxProcess.packageRoot.appendingPathComponent("../shared/fixtures/backup").standardizedFileURL
    static let udid = "0123456789abcdef0123456789abcdef01234567"

    private func run(_ arguments: [String], in directory: TemporaryDirectory, home: URL? = nil) throws -> SandboxProcess.Result {
        try SandboxProcess.run(arguments, in: directory.url, subcommand: "backup",
                               environment: ["SANDBOX_HOME": (home ?? directory.url.appendingPathComponent("home")).path])
    }

    private func json(_ result: SandboxProcess.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
    }

    /// A backup written by MobileBackup under `<home>/backups/<udid>`.
    private func ourBackup(in directory: TemporaryDirectory) throws -> URL {
        let app = directory.url.appendingPathComponent("app")
        try FileManager.default.createDirectory(at: app.appendingPathComponent("Documents"), withIntermediateDirectories: true)
        try Data("hello".utf8).write(to: app.appendingPathComponent("Documents/hello.txt"))
        try Data(repeating: 7, count: 200_000).write(to: app.appendingPathComponent("Documents/blob.bin"))
        let device = BackupDeviceInfo(udid: "00008110-00CLI0000000001E", deviceName: "CLI iPhone")
        let backup = directory.url.appendingPathComponent("home/backups").appendingPathComponent(device.udid)
        try BackupWriter(directory: backup, device: device, options: BackupOptions(flushesToDisk: false))
            .backUp([BackupDomainSource(domain: "AppDomain-com.example.cli", root: app)])
        return backup
    }

    @Test func listsInfoAndVerifiesTheSamples() throws {
        let directory = try TemporaryDirectory()
        let list = try run(["list", Self.samples.appendingPathComponent("unencrypted").path, "--json"], in: directory)
        #expect(list.status == 0, "\(list.standardError)")
        let backups = try #require(try json(list)["backups"] as? [[String: Any]])
        #expect(backups.count == 1)
        #expect((backups.first?["device"] as? [String: Any])?["udid"] as? String == Self.udid)

        let encrypted = Self.samples.appendingPathComponent("encrypted_pw_test1234").path
        let locked = try run(["info", encrypted, "--json"], in: directory)
        #expect(locked.status == 0)
        #expect(try json(locked)["domains"] == nil)
        let info = try run(["info", encrypted, "--password", "test1234", "--json"], in: directory)
        let domains = try #require(try json(info)["domains"] as? [[String: Any]])
        #expect(domains.map { $0["domain"] as? String } == ["AppDomain-com.example.notes", "AppDomainGroup-group.com.example.notes", "HomeDomain"])

        let wrong = try run(["verify", encrypted, "--password", "nope"], in: directory)
        #expect(wrong.status == 1)
        #expect(wrong.standardError.contains("wrongPassword"))
        let verify = try run(["verify", encrypted, "--password", "test1234", "--json"], in: directory)
        #expect(verify.status == 0)
        #expect(try json(verify)["verifiedFiles"] as? Int == 6)
    }

    @Test func extractsAnAppOrADomainFromASample() throws {
        let directory = try TemporaryDirectory()
        let plain = Self.samples.appendingPathComponent("unencrypted").path
        let app = try run(["extract", plain, "com.example.notes", "out"], in: directory)
        #expect(app.status == 0, "\(app.standardError)")
        #expect(try directory.read("out/Documents/note.txt").count == 21)
        let home = try run(["extract", plain, "HomeDomain", "home-out", "--json"], in: directory)
        #expect(try json(home)["verifiedFiles"] as? Int == 1)
        #expect(directory.contains("home-out/Library/Preferences/.GlobalPreferences.plist"))
        let missing = try run(["extract", plain, "com.example.absent", "none"], in: directory)
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("AppDomain-com.example.notes"))
    }

    @Test func worksOnOurBackupsUnderSandboxHomeAndReportsDamage() throws {
        let directory = try TemporaryDirectory()
        let backup = try ourBackup(in: directory)
        let list = try run(["list"], in: directory)
        #expect(list.status == 0)
        #expect(list.output.contains("00008110-00CLI0000000001E  CLI iPhone"))
        let info = try run(["info", "00008110-00CLI0000000001E"], in: directory)
        #expect(info.output.contains("Written by: Sandbox"))
        #expect(info.output.contains("AppDomain-com.example.cli: 2 files"))

        let reader = try BackupReader(directory: backup)
        let record = try #require(reader.record(domain: "AppDomain-com.example.cli", relativePath: "Documents/blob.bin"))
        let payload = backup.appendingPathComponent(BackupFileID.payloadPath(record.fileID))
        try Data(repeating: 8, count: 200_000).write(to: payload)
        let verify = try run(["verify", "00008110-00CLI0000000001E", "--json"], in: directory)
        #expect(verify.status == 1)
        let problems = try #require(try json(verify)["problems"] as? [[String: Any]])
        #expect(problems.map { $0["relativePath"] as? String } == ["Documents/blob.bin"])
        #expect(problems.first?["kind"] as? String == "digestMismatch")
        let extract = try run(["extract", "00008110-00CLI0000000001E", "com.example.cli", "out"], in: directory)
        #expect(extract.status == 1)
        #expect(directory.contains("out/Documents/hello.txt"))
        #expect(!directory.contains("out/Documents/blob.bin"))
    }
}
