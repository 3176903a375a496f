import Foundation
import MobileBackup
import TestSupport
import Testing

/// Issue 29, findings 16 and 17 through the command line: a backup whose
/// Info.plist is a one-hop relative link (or whose Status.plist is a FIFO)
/// is refused by `backup info` with a sentence naming the file and what it
/// is, and `backup list` lists the other backups and reports the bad ones
/// with their reason, in text and JSON, exiting 0.
@Suite(.timeLimit(.minutes(2))) struct BackupUnreadableCommandTests {
    private func run(_ arguments: [String], in directory: TemporaryDirectory) throws -> SandboxProcess.Result {
        try SandboxProcess.run(arguments, in: directory.url, subcommand: "backup",
                               environment: ["SANDBOX_HOME": directory.url.appendingPathComponent("home").path])
    }

    /// A plain backup of one small app under `<directory>/backups/<udid>`.
    private func backup(_ udid: String, in directory: TemporaryDirectory) throws -> URL {
        let app = directory.url.appendingPathComponent("app-" + udid)
        try FileManager.default.createDirectory(at: app.appendingPathComponent("Documents"), withIntermediateDirectories: true)
        try Data("hello".utf8).write(to: app.appendingPathComponent("Documents/hello.txt"))
        let backup = directory.url.appendingPathComponent("backups").appendingPathComponent(udid)
        try BackupWriter(directory: backup, device: BackupDeviceInfo(udid: udid, deviceName: "iPhone " + udid),
                         options: BackupOptions(flushesToDisk: false))
            .backUp([BackupDomainSource(domain: "AppDomain-com.example.cli", root: app)])
        return backup
    }

    @Test func oneBadBackupDoesNotHideTheOthers() throws {
        let directory = try TemporaryDirectory()
        _ = try backup("00008110-GOOD00000000001E", in: directory)
        let linked = try backup("00008110-LINK00000000002E", in: directory)
        let piped = try backup("00008110-PIPE00000000003E", in: directory)
        // Info.plist a one-hop relative link to the real one beside it.
        let info = linked.appendingPathComponent("Info.plist")
        try FileManager.default.moveItem(at: info, to: linked.appendingPathComponent("Info.real.plist"))
        try FileManager.default.createSymbolicLink(atPath: info.path, withDestinationPath: "Info.real.plist")
        // Status.plist a FIFO nobody writes: reading it would block forever.
        let status = piped.appendingPathComponent("Status.plist")
        try FileManager.default.removeItem(at: status)
        #expect(mkfifo(status.path, 0o600) == 0)
        let backups = directory.url.appendingPathComponent("backups").path

        let infoRun = try run(["info", linked.path], in: directory)
        #expect(infoRun.status == 1)
        #expect(infoRun.standardError.contains("Info.plist is a symbolic link; a backup's files must be regular files"),
                "\(infoRun.standardError)")
        #expect(infoRun.standardError.contains(info.path))
        #expect(!infoRun.standardError.contains("Too many levels"))
        let pipeRun = try run(["info", piped.path], in: directory)
        #expect(pipeRun.status == 1)
        #expect(pipeRun.standardError.contains("Status.plist is a FIFO"), "\(pipeRun.standardError)")

        let list = try run(["list", backups], in: directory)
        #expect(list.status == 0, "\(list.standardError)")
        #expect(list.output.contains("00008110-GOOD00000000001E  iPhone 00008110-GOOD00000000001E"))
        #expect(list.output.contains("unreadable  notARegularFile: Info.plist is a symbolic link"), "\(list.output)")
        #expect(list.output.contains("unreadable  notARegularFile: Status.plist is a FIFO"))
        #expect(list.output.contains("    " + linked.path + "\n"))

        let json = try run(["list", backups, "--json"], in: directory)
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: json.standardOutput) as? [String: Any])
        let listed = try #require(object["backups"] as? [[String: Any]])
        #expect(listed.compactMap { ($0["device"] as? [String: Any])?["udid"] as? String } == ["00008110-GOOD00000000001E"])
        let unreadable = try #require(object["unreadable"] as? [[String: Any]])
        #expect(unreadable.count == 2)
        #expect(unreadable.first?["path"] as? String == linked.path)
        #expect(unreadable.first?["code"] as? String == "notARegularFile")
        #expect((unreadable.first?["message"] as? String)?.contains("Info.plist is a symbolic link") == true)
        #expect(unreadable.last?["path"] as? String == piped.path)
        // Nothing was changed: the link is still the link.
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: info.path) == "Info.real.plist")
    }
}
