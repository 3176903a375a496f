import Foundation
import TestSupport
import Testing

/// Issue 30, item 4: a disk that fills while a backup writes its payloads
/// is caught at the top as a full disk: the backup's own error, `isDiskFull`,
/// with the file system's `ENOSPC` in its chain, and no staging folder left.
@Suite struct DiskFullBackupTests {
    @Test(.enabled(if: PrivateMount.shouldRun, "needs unshare and the right to mount a tmpfs"))
    func aDiskThatFillsMidwayIsCaughtAsDiskFullFromTheTop() throws {
        let fixture = try DeviceFixture("backup-full")
        let container = try fixture.install().dataContainer()
        // 240 payloads of 8 KiB (2 MB) fit the 4 MiB file system when the
        // backup checks it; the helper fills it at the first progress report
        // (after 64 payloads), so the later ones meet ENOSPC.
        for index in 0..<240 {
            try container.writeAtomically(Data(repeating: UInt8(index), count: 8_192), to: "Documents/f\(index).bin")
        }
        let backups = fixture.temp.url.appendingPathComponent("backups")
        try FileManager.default.createDirectory(at: backups, withIntermediateDirectories: true)
        let worker = try #require(Helper.locate("device-crash-worker"), "device-crash-worker was not built")
        let result = try PrivateMount.run(mountPoint: backups, size: "4m",
                                          command: [worker.path, "backup-full", fixture.device.root.path, backups.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.output == "CodedError<MobileBackupErrorCode> true true clean\n", "\(result.standardError)")
        #expect(result.standardError.components(separatedBy: "No space left on device").count == 2, "\(result.standardError)")
    }
}
