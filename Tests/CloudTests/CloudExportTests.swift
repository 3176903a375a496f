import CloudTestSupport
import CloudBackup
import CloudProtocol
import Crypto
import Device
import Foundation
import Testing
import TestSupport

/// A restored snapshot exported as a MobileBackup directory is what
/// independent readers of iOS backups open.
@Suite struct CloudExportTests {
    @Test func anExportedSnapshotIsReadByIOSbackupPyiosbackupAndMvt() async throws {
        let cloud = try await CloudFixture("cloud-export")
        defer { Task { await cloud.stop() } }
        let phone = try cloud.device("phone")
        let note = Data("exported note".utf8)
        try phone.app("com.example.notes").dataContainer().writeAtomically(note, to: "Documents/note.txt")
        let account = try await cloud.signIn(phone, account: "hal", create: true)
        _ = try await CloudBackup.backUp(device: phone, account: account, now: true)
        let export = cloud.temp.path("export")
        let report = try await CloudRestore.restore(device: phone, account: account, exportTo: export, restoreDevice: false)
        #expect(report.backupDirectory == export + "/" + phone.identity.udid)

        let script = BuiltExecutable.packageRoot.appendingPathComponent("Tests/Oracles/backup_oracle.py").path
        let result = try ChildProcess.python([script, "read", report.backupDirectory, "--tools", "iosbackup,pyiosbackup,mvt"])
        #expect(result.status == 0, "\(result.standardError)")
        let readings = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: [String: Any]])
        for tool in ["iosbackup", "pyiosbackup", "mvt"] {
            let reading = try #require(readings[tool], "\(tool) gave nothing")
            #expect(reading["error"] == nil, "\(tool): \(reading["error"] ?? "")")
            let files = reading["files"] as? [String: [String: Any]] ?? [:]
            let entry = files["AppDomain-com.example.notes/Documents/note.txt"]
            #expect(entry != nil, "\(tool) does not list the note")
            if let sha1 = entry?["sha1"] as? String {
                #expect(sha1 == Insecure.SHA1.hash(data: note).map { String(format: "%02x", $0) }.joined())
            }
        }
    }
}
