import CloudBackup
import CloudService
import Device
import FileSystem
import Foundation
import KeyedArchive
import Keychain
import Logging

/// The demo's last step: iCloud backup on the embedded service.
extension DemoScript {
    /// The embedded service's directory (chunks and the SQLite ledger).
    var cloudServiceURL: URL { home.root.appendingPathComponent("demo-cloud-service", isDirectory: true) }

    mutating func backUpToICloud() async throws {
        narrator.begin("Back up to iCloud, then restore the second device from it")
        try FileSystemPaths.removeTree(atPath: cloudServiceURL.path)
        var logger = Logger(label: "sandbox-demo-cloud")
        logger.logLevel = .critical
        let service = try await CloudService.open(.embedded(directory: cloudServiceURL.path), adminToken: nil, logger: logger)
        let server = try await CloudServer.start(service, gcInterval: nil)
        do {
            try await backUpAndRestore(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    private mutating func backUpAndRestore(_ server: CloudServer) async throws {
        narrator.say("the iCloud backup service runs on \(server.baseURL) (embedded: a directory and SQLite)")
        let first = try Device.open(at: firstDeviceURL)
        let second = try Device.open(at: secondDeviceURL)
        let password = "possessions-icloud"
        // A cheap key derivation keeps the demo quick; the default is 210,000 rounds.
        let account = try await CloudAccount.signIn(device: first, service: server.baseURL, account: "demo@example.com",
                                                    password: password, create: true, rounds: 1000)
        narrator.say("\(first.identity.name) signed in to demo@example.com; the password never left the device")
        do {
            _ = try await CloudBackup.backUp(device: first, account: account)
            throw DemoError(step: narrator.step, claim: "iCloud backup waits for lock, power and Wi-Fi")
        } catch let error as CloudBackupError where error.code == .conditionsNotMet {
            try narrator.check(error.message.contains("not locked"), "an unlocked device does not back up (iOS waits for lock, power and Wi-Fi)")
        }
        try first.updateNetwork { network in
            network.setLocked(true)
            network.setPower(true)
        }
        let report = try await CloudBackup.backUp(device: first, account: account)
        narrator.say("locked, on power, on Wi-Fi: snapshot \(report.snapshot.snapshotID), \(report.files) files, "
                     + "\(report.chunksSent) encrypted chunks sent (\(CloudText.megabytes(report.bytesSent)))")

        let secondAccount = try await CloudAccount.signIn(device: second, service: server.baseURL, account: "demo@example.com",
                                                          password: password, create: false, rounds: 1000)
        let secondReport = try await CloudBackup.backUp(device: second, account: secondAccount, now: true)
        try narrator.check(secondReport.chunksAlreadyStored > 0,
                           "\(second.identity.name)'s backup sent \(secondReport.chunksSent) chunks: \(secondReport.chunksAlreadyStored) were already stored")

        let restored = try await CloudRestore.restore(device: second, account: secondAccount, sourceDevice: account.deviceID)
        narrator.say("restored \(restored.files) files of \(restored.sourceName)'s snapshot onto \(second.identity.name)")
        let container = try second.app(PossessionsApp.bundleID).dataContainer()
        let possessions = try KeyedUnarchiver.unarchive([Possession].self, from: container.read(PossessionsApp.archivePath))
        try narrator.check(possessions == app.possessions, "the \(possessions.count) possessions came back from iCloud")
        let accounts = try second.app(PossessionsApp.bundleID).keychainClient(on: second)
            .query(KeychainQuery(.genericPassword, KeychainAttributes(service: PossessionsApp.keychainService), limit: .all))
            .compactMap(\.attributes.account)
        try narrator.check(accounts.contains("sync-token") && !accounts.contains("device-key"),
                           "sync-token came back, device-key (ThisDeviceOnly) did not")
        let totals = try await server.service.ledger.totals()
        let used = totals.accounts.first?.used ?? 0
        narrator.say("iCloud storage used: \(CloudText.megabytes(used)) of \(CloudText.megabytes(totals.accounts.first?.quota ?? 0)); "
                     + "deduplication saved \(CloudText.megabytes(totals.deduplicatedBytes))")
        try narrator.check(totals.deduplicatedBytes > 0 && used < totals.referencedBytes,
                           "the two devices' identical files are stored once")
        narrator.say("try: sandbox cloud serve --directory \(cloudServiceURL.path)")
    }
}
