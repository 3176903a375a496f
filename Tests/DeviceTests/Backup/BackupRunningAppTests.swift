@testable import Device
import Foundation
import Testing

/// iOS backs up apps that are suspended or not running; a device here
/// refuses to back up an app that runs, since nothing stops it writing its
/// files (and swapping them for links) while they are read.
@Suite struct BackupRunningAppTests {
    @Test func aRunningAppIsRefusedWithATypedErrorAndNothingIsWritten() throws {
        let fixture = try DeviceFixture("backup-running")
        let app = try fixture.install(identifier: "com.example.busy")
        let backups = fixture.temp.url.appendingPathComponent("backups")
        let run = try fixture.device.run(app.bundleID, delegate: EmptyDelegate())
        try run.launch()
        let error = try #require(throws: DeviceError.self) { try fixture.device.backUp(to: backups) }
        #expect(error.code == .appRunning)
        #expect(error.bundleID == "com.example.busy")
        #expect(error.message.contains("terminate"))
        #expect(!FileManager.default.fileExists(atPath: backups.appendingPathComponent(fixture.device.identity.udid).path))

        try run.terminate()
        let summary = try fixture.device.backUp(to: backups)
        #expect(summary.skippedFiles.isEmpty)
    }
}
