import CloudTestSupport
import Device
import CloudBackup
import CloudProtocol
import CloudService
import Foundation
import Testing

/// Identical content is stored once per account, whichever device sent it.
@Suite struct CloudDeduplicationTests {
    @Test func threeDevicesOnTwoAccountsBackingUpAtOnceStoreSharedContentOncePerAccount() async throws {
        let cloud = try await CloudFixture("cloud-dedup")
        defer { Task { await cloud.stop() } }
        let shared = CloudFixture.bytes(4 * 1024 * 1024, seed: 42)
        var devices: [(device: Device, account: CloudAccount)] = []
        for (index, (name, account)) in [("ann-phone", "ann"), ("ann-tablet", "ann"), ("ben-phone", "ben")].enumerated() {
            let device = try cloud.device(name)
            let container = try device.app("com.example.notes").dataContainer()
            try container.writeAtomically(shared, to: "Documents/shared.bin")
            try container.writeAtomically(CloudFixture.bytes(64 * 1024, seed: UInt64(index)), to: "Documents/own.bin")
            let signedIn = try await cloud.signIn(device, account: account, create: index != 1)
            devices.append((device, signedIn))
        }
        let reports = try await withThrowingTaskGroup(of: CloudBackupReport.self) { group in
            for (device, account) in devices {
                group.addTask { try await CloudBackup.backUp(device: device, account: account, now: true) }
            }
            var reports: [CloudBackupReport] = []
            for try await report in group { reports.append(report) }
            return reports
        }
        #expect(reports.count == 3)
        let totals = try await cloud.ledger.totals()
        let ann = try #require(totals.accounts.first { $0.name == "ann" })
        let ben = try #require(totals.accounts.first { $0.name == "ben" })
        let sharedBytes = Int64(shared.count)
        // Ann's two devices: the 4 MiB once, plus small per-device files.
        #expect(ann.used >= sharedBytes)
        #expect(ann.used < sharedBytes + sharedBytes / 4)
        // Ben's account stores its own copy: chunk names differ between accounts.
        #expect(ben.used >= sharedBytes)
        #expect(ben.used < sharedBytes + sharedBytes / 4)
        #expect(totals.deduplicatedBytes >= sharedBytes)
        // Storage used stays within 1.1x the unique content.
        #expect(Double(totals.storedBytes) <= 1.1 * Double(2 * sharedBytes + 3 * 64 * 1024) + 200_000)
    }
}
