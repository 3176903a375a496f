import Foundation
import TestSupport
import Testing

/// `sandbox demo`, the project's main job, run as the built executable in a
/// scratch SANDBOX_HOME: every step's checks hold, and it leaves the devices
/// and the backup where it says.
@Suite struct DemoCommandTests {
    @Test func theDemoRunsEveryStepAndLeavesItsDevicesAndBackup() throws {
        let scratch = try TemporaryDirectory()
        let home = scratch.url.appendingPathComponent("home")
        let result = try SandboxProcess.run(["demo"], in: scratch.url, subcommand: nil, environment: ["SANDBOX_HOME": home.path])
        #expect(result.status == 0, "\(result.standardError)")
        let output = result.output
        for step in 1...9 { #expect(output.contains("\n\(step). "), "step \(step) is missing") }
        // Every claim the demo makes is checked by the demo itself; a failed one stops it.
        #expect(output.components(separatedBy: "✓ ").count - 1 >= 22)
        #expect(output.contains("device-key (ThisDeviceOnly) did not leave the first device"))
        let devices = home.appendingPathComponent("devices")
        #expect(FileManager.default.fileExists(atPath: devices.appendingPathComponent("demo-iphone/device.plist").path))
        #expect(FileManager.default.fileExists(atPath: devices.appendingPathComponent("demo-iphone-2/device.plist").path))
        // One backup, beside its writer's lock file (`.<UDID>.lock`, hidden).
        let backups = try FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("backups").path)
            .filter { !$0.hasPrefix(".") }
        #expect(backups.count == 1, "\(backups)")
        // It ends with the audit of Possessions, and its HTML report beside the devices.
        let lastStep = try #require(output.components(separatedBy: "\n").last { $0.range(of: #"^\d+\. "#, options: .regularExpression) != nil })
        #expect(lastStep.hasSuffix("Audit what Possessions costs the disk and the backup"), "\(lastStep)")
        #expect(output.contains("iCloud backup:") && output.contains("com.example.Possessions"))
        let report = devices.appendingPathComponent("possessions-audit.html")
        #expect(output.contains(report.path))
        let page = String(decoding: try Data(contentsOf: report), as: UTF8.self)
        #expect(page.hasPrefix("<!DOCTYPE html>") && page.contains("<svg") && !page.contains("<script"))

        // A second run starts afresh and replaces the first run's devices and backup.
        let again = try SandboxProcess.run(["demo"], in: scratch.url, subcommand: nil, environment: ["SANDBOX_HOME": home.path])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("backups").path)
            .filter { !$0.hasPrefix(".") }.count == 1)
    }
}
