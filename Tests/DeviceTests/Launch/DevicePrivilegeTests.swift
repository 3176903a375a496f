@testable import Device
import Foundation
import Keychain
import Launch
import PropertyList
import Testing

/// An app launched by a device runs as the unprivileged `mobile` user: it
/// cannot change the metadata of the device's secrets, which stay owned by
/// root with private modes.
@Suite struct DevicePrivilegeTests {
    @Test("a launched app cannot change or reach the device's secrets",
          .enabled(if: Landlock.isAvailable, "the kernel has no Landlock"))
    func secretsStayPrivate() throws {
        let fixture = try DeviceFixture("launch-privilege")
        let probe = try ProbeApp(fixture)
        let app = probe.app

        let root = fixture.device.root
        let secrets = root.appendingPathComponent("Secrets")
        let secret = secrets.appendingPathComponent("device-secret")
        let keychains = root.appendingPathComponent("Keychains")
        let database = keychains.appendingPathComponent(Keychain.databaseFileName)
        let protected = [secret, secrets, keychains] + (FileManager.default.fileExists(atPath: database.path) ? [database] : [])
        let before = try protected.map { try FileManager.default.attributesOfItem(atPath: $0.path) }

        let pipe = Pipe()
        var options = ProcessLaunchOptions()
        options.confinement = .required
        options.standardOutput = .fileHandle(pipe.fileHandleForWriting)
        let arguments = probe.arguments + (LibC.isRoot ? protected.flatMap { ["--protected", $0.path] } : [])
        let run = try fixture.device.launch(app.bundleID, arguments: arguments, options: options)
        try pipe.fileHandleForWriting.close()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        #expect(try run.process.wait() == .exited(0))
        let report = try PropertyListValue.decode(output, as: .json)

        if LibC.isRoot {
            #expect(report["uid"]?.int64Value == Int64(AppUser.mobile.uid))
            #expect(report["euid"]?.int64Value == Int64(AppUser.mobile.uid))
        }
        #expect(report["privileges"]?["CapEff"]?.stringValue == "0000000000000000")
        #expect(report["privileges"]?["NoNewPrivs"]?.stringValue == "1")
        let attacks = (report["attempts"]?.arrayValue ?? []).filter {
            ($0["name"]?.stringValue ?? "").contains("-protected") && $0["outcome"]?.stringValue != "skipped"
        }
        if LibC.isRoot { #expect(attacks.count >= 4 * protected.count) }
        for attack in attacks {
            #expect(attack["outcome"]?.stringValue == "denied",
                    "\(attack["name"]?.stringValue ?? "?"): \(attack["detail"]?.stringValue ?? "")")
        }
        // The secrets keep their owner, modes and times.
        let after = try protected.map { try FileManager.default.attributesOfItem(atPath: $0.path) }
        for (index, url) in protected.enumerated() {
            for key in [FileAttributeKey.posixPermissions, .ownerAccountID, .modificationDate] {
                #expect(String(describing: before[index][key]) == String(describing: after[index][key]),
                        "\(url.lastPathComponent): \(key.rawValue) changed")
            }
        }
        let mode = { (url: URL) in (try? FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue }
        #expect(mode(secrets) == 0o700)
        #expect(mode(secret) == 0o600)
        #expect(mode(keychains) == 0o700)
        // The app's data directories are its user's.
        if LibC.isRoot {
            let documents = try FileManager.default.attributesOfItem(atPath: app.dataContainerURL.appendingPathComponent("Documents").path)
            #expect((documents[.ownerAccountID] as? NSNumber)?.uint32Value == AppUser.mobile.uid)
        }
    }
}
