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

        // The operator's /metrics says the same as the ledger: bytes stored,
        // deduplicated, and each account's usage against its quota.
        let metrics = try await RawCloudClient(baseURL: cloud.url).send("GET", "/metrics", token: CloudFixture.adminToken)
        #expect(metrics.status == 200)
        let samples = Self.samples(metrics.text)
        #expect(samples["sandbox_cloud_stored_bytes"] == Double(totals.storedBytes))
        #expect(samples["sandbox_cloud_deduplicated_bytes"] == Double(totals.deduplicatedBytes))
        #expect(samples["sandbox_cloud_account_used_bytes{account=\"ann\"}"] == Double(ann.used))
        #expect(samples["sandbox_cloud_account_used_bytes{account=\"ben\"}"] == Double(ben.used))
        #expect(samples["sandbox_cloud_account_quota_bytes{account=\"ann\"}"] == Double(ann.quota))
        #expect(samples["sandbox_cloud_snapshots_committed_total"] == 3)
        // Each account's copy of the shared content crossed the wire at
        // least once, and no device sent more than its own copy. (Two
        // devices of one account that ask at the same moment may both send
        // a chunk; it is stored once, as storedBytes above shows.)
        let received = samples["sandbox_cloud_bytes_received_total"] ?? 0
        #expect(received >= Double(2 * sharedBytes))
        #expect(received <= Double(3 * sharedBytes + 3 * 64 * 1024) * 1.1 + 200_000)
    }

    /// Prometheus text as `name{labels}` → value, comments left out.
    static func samples(_ text: String) -> [String: Double] {
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            samples[String(line[..<space])] = value
        }
        return samples
    }
}
