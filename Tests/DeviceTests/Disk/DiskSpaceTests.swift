@testable import Device
import Foundation
import Testing

@Suite struct DiskSpaceTests {
    @Test func theHostsFreeSpaceIsReportedWithoutASimulatedCapacity() throws {
        let fixture = try DeviceFixture()
        let space = try fixture.device.freeSpace()
        #expect(!space.isSimulated)
        #expect(space.total > 0)
        #expect(space.free <= space.total)
    }

    @Test func aSimulatedCapacityCountsWhatTheDeviceHolds() throws {
        let fixture = try DeviceFixture(capacity: 100 << 20)
        let before = try fixture.device.freeSpace()
        #expect(before.isSimulated)
        #expect(before.total == 100 << 20)
        let app = try fixture.install()
        try app.dataContainer().writeAtomically(Data(repeating: 7, count: 4 << 20), to: "Documents/big.bin")
        let after = try fixture.device.freeSpace()
        #expect(before.free - after.free >= 4 << 20)
    }

    @Test func thresholdsGiveLevels() {
        let thresholds = DiskThresholds(warning: 1000, critical: 100)
        #expect(thresholds.level(free: 5000) == .normal)
        #expect(thresholds.level(free: 999) == .low)
        #expect(thresholds.level(free: 99) == .critical)
        #expect(DiskThresholds.defaults(capacity: 64 << 30).warning == 1 << 30)
        #expect(DiskThresholds.defaults(capacity: 1 << 30).critical == (1 << 30) / 40)
    }

    @Test func lowSpaceWarnsRunningAppsAndCriticalSpacePurgesTheOthers() throws {
        // 8 MiB capacity; warn below 6 MiB free, purge below 3 MiB.
        let fixture = try DeviceFixture(capacity: 8 << 20, thresholds: DiskThresholds(warning: 6 << 20, critical: 3 << 20))
        let running = try fixture.install(identifier: "com.example.running")
        let idle = try fixture.install(identifier: "com.example.idle")
        let delegate = RecordingDelegate()
        let run = try fixture.device.run(running.bundleID, delegate: delegate)
        try run.launch()
        #expect(try fixture.device.checkDiskSpace().space.level == .normal)
        #expect(delegate.lowDiskWarnings.isEmpty)

        try idle.dataContainer().writeAtomically(Data(repeating: 1, count: 3 << 20), to: "Library/Caches/blob")
        // Another Device value on the same directory reaches the same runs.
        let low = try Device.open(at: fixture.device.root).checkDiskSpace()
        #expect(low.space.level == .low)
        #expect(low.purge == nil)
        #expect(delegate.lowDiskWarnings.count == 1)

        try idle.dataContainer().writeAtomically(Data(repeating: 1, count: 2 << 20), to: "Library/Caches/blob2")
        let critical = try fixture.device.checkDiskSpace()
        #expect(critical.space.level == .critical)
        #expect(critical.purge?.apps.map(\.bundleID) == ["com.example.idle"])
        #expect(critical.purge?.skippedRunning == ["com.example.running"])
        #expect(try fixture.device.freeSpace().level == .normal)
        try run.terminate()
    }
}
