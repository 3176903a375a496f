@testable import Device
import FileSystem
import Foundation
import SystemPackage
import MobileBackup
import Testing
import TestSupport

/// Issue 29, finding 13: a backup killed while it copies leaves its staging
/// folder; the next backup into that directory removes it before it writes,
/// whichever device it backs up, and leaves the staging folder of a writer
/// that is still running alone.
@Suite struct InterruptedBackupTests {
    private static func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

    @Test func aKilledBackupsStagingFolderIsRemovedByTheNextRun() throws {
        let fixture = try DeviceFixture("backup-killed")
        let app = try fixture.install(identifier: "com.example.notes")
        let container = try app.dataContainer()
        for index in 0..<20 { try container.writeAtomically(Data(repeating: UInt8(index), count: 4_096), to: "Documents/f\(index).bin") }
        let backups = fixture.temp.url.appendingPathComponent("backups")
        let udid = fixture.device.identity.udid
        let staging = backups.appendingPathComponent(udid + ".sandbox-staging")

        // A second process backs up and is killed while its payloads are in the staging folder.
        let pipe = Pipe()
        let worker = try Helper.start("device-crash-worker", ["backup", fixture.device.root.path, backups.path], output: pipe)
        try CrashConsistencyTests.waitForLines(1, from: pipe.fileHandleForReading)
        LibC.kill(worker.processIdentifier)
        worker.waitForExit()
        #expect(Self.exists(staging), "the killed backup left no staging folder to test with")
        #expect(!Self.exists(backups.appendingPathComponent(udid)))

        // Another device's abandoned staging folder goes too; a live writer's stays.
        let abandoned = backups.appendingPathComponent("OTHER-DEVICE.sandbox-staging")
        let busy = backups.appendingPathComponent("BUSY-DEVICE.sandbox-staging")
        for folder in [abandoned, busy] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("ab"), withIntermediateDirectories: true)
            try Data("half a payload".utf8).write(to: folder.appendingPathComponent("ab/ab01"))
        }
        let directory = try FileDescriptor.openDirectory(atPath: backups.path)
        defer { directory.closeQuietly() }
        let busyLock = try #require(try LockFile.tryAcquire(for: "BUSY-DEVICE", in: directory))
        defer { busyLock.release() }

        let summary = try fixture.device.backUp(to: backups)
        #expect(summary.files > 20)
        #expect(!Self.exists(staging))
        #expect(!Self.exists(abandoned))
        #expect(Self.exists(busy.appendingPathComponent("ab/ab01")), "a running writer's staging folder was removed")
        let reader = try BackupReader(directory: backups.appendingPathComponent(udid))
        #expect(reader.verify().isClean)
        #expect(reader.info.snapshotState == "finished")
    }

    /// A second writer of the same backup is refused with a typed error
    /// while the first holds it, and removes nothing of the first's.
    @Test func aSecondWriterOfTheSameBackupIsRefused() throws {
        let fixture = try DeviceFixture("backup-busy")
        _ = try fixture.install(identifier: "com.example.notes")
        let backups = fixture.temp.url.appendingPathComponent("backups")
        try FileManager.default.createDirectory(at: backups, withIntermediateDirectories: true)
        let udid = fixture.device.identity.udid
        let staging = backups.appendingPathComponent(udid + ".sandbox-staging")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        let directory = try FileDescriptor.openDirectory(atPath: backups.path)
        defer { directory.closeQuietly() }
        let held = try #require(try LockFile.tryAcquire(for: udid, in: directory))

        let error = try #require(throws: MobileBackupError.self) { try fixture.device.backUp(to: backups) }
        #expect(error.code == .backupInProgress)
        #expect(error.path == backups.path + "/" + udid)
        #expect(Self.exists(staging))
        held.release()
        _ = try fixture.device.backUp(to: backups)
        #expect(!Self.exists(staging))
    }
}
