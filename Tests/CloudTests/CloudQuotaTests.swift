import CloudTestSupport
import CloudBackup
import CloudProtocol
import CloudService
import CodedErrors
import Crypto
import Foundation
import Testing

/// The quota counts the unique bytes an account references and is never
/// exceeded, not by one byte, whatever the number of devices and server
/// processes.
@Suite struct CloudQuotaTests {
    /// A device signed in through the raw API (no Device needed).
    static func rawDevice(_ url: String, account: String, authKey: String, udid: String) async throws -> CloudClient {
        let answer = try await CloudClient(baseURL: url).signIn(SignInRequest(account: account, authKey: authKey, deviceName: udid, udid: udid))
        return CloudClient(baseURL: url, token: answer.token)
    }

    @Test func concurrentUploadsThroughTwoServerProcessesNeverPassTheQuota() async throws {
        let cloud = try await CloudFixture("cloud-quota-race")
        await cloud.stop()
        let directory = cloud.temp.path("shared-service")
        let quota: Int64 = 1_000_000
        let first = try ServiceProcess(directory: directory, quota: quota)
        let second = try ServiceProcess(directory: directory, quota: quota)
        defer {
            first.stop()
            second.stop()
        }
        let authKey = Data(repeating: 7, count: 32).base64EncodedString()
        _ = try await CloudClient(baseURL: first.url).createAccount(CreateAccountRequest(account: "racer", authKey: authKey))
        let chunkSize = 10_000
        let outcomes = try await withThrowingTaskGroup(of: (stored: Int, refused: Int).self) { group in
            for deviceIndex in 0..<4 {
                group.addTask {
                    let url = deviceIndex % 2 == 0 ? first.url : second.url
                    let client = try await Self.rawDevice(url, account: "racer", authKey: authKey, udid: "device-\(deviceIndex)")
                    let session = try await client.openSession().sessionID
                    var stored = 0
                    var refused = 0
                    try await withThrowingTaskGroup(of: Bool.self) { uploads in
                        for index in 0..<40 {
                            uploads.addTask {
                                let bytes = [UInt8](CloudFixture.bytes(chunkSize, seed: UInt64(deviceIndex * 1000 + index)))
                                let id = ChunkID(digest: SHA256.hash(data: bytes))
                                do {
                                    _ = try await client.upload(bytes, id: id, session: session)
                                    return true
                                } catch let error as CloudBackupError where error.code == .quotaExceeded {
                                    #expect(error.serviceError?.quotaBytes == quota)
                                    return false
                                }
                            }
                        }
                        for try await accepted in uploads { if accepted { stored += 1 } else { refused += 1 } }
                    }
                    return (stored, refused)
                }
            }
            var total = (stored: 0, refused: 0)
            for try await outcome in group {
                total.stored += outcome.stored
                total.refused += outcome.refused
            }
            return total
        }
        #expect(outcomes.stored + outcomes.refused == 160)
        #expect(outcomes.refused > 0)
        // The ledger, read as a third process would.
        let ledger = Ledger(database: try SQLiteLedgerDatabase(path: directory + "/ledger.sqlite"))
        let totals = try await ledger.totals()
        let account = try #require(totals.accounts.first { $0.name == "racer" })
        #expect(account.used <= quota)
        #expect(account.used == Int64(outcomes.stored * chunkSize))
        #expect(totals.storedBytes == account.used)
        // Filled to within one chunk of the quota: refusals were for real.
        #expect(account.used > quota - Int64(chunkSize))
        await ledger.database.close()
    }

    @Test func aBackupOverQuotaIsRefusedAndTheLastGoodSnapshotStillRestores() async throws {
        let cloud = try await CloudFixture("cloud-quota", quota: 3_000_000)
        defer { Task { await cloud.stop() } }
        let phone = try cloud.device("phone")
        let container = try phone.app("com.example.notes").dataContainer()
        let first = CloudFixture.bytes(1_000_000, seed: 5)
        try container.writeAtomically(first, to: "Documents/a.bin")
        let account = try await cloud.signIn(phone, account: "dora", create: true)
        let good = try await CloudBackup.backUp(device: phone, account: account, now: true)

        try container.writeAtomically(CloudFixture.bytes(4_000_000, seed: 6), to: "Documents/b.bin")
        let refusal = await #expect(throws: CloudBackupError.self) {
            try await CloudBackup.backUp(device: phone, account: account, now: true)
        }
        #expect(refusal?.code == .quotaExceeded, "\(String(describing: refusal))")
        #expect(refusal?.serviceError?.quotaBytes == 3_000_000)
        #expect(refusal?.message.contains("full") == true)
        // Caught at the top as an exhausted quota, not as a full disk.
        #expect(refusal?.isOverQuota == true)
        #expect(refusal?.isDiskFull == false)
        #expect(CloudServiceError.quotaExceeded(used: 1, quota: 1, needed: 1).isOverQuota)
        let status = try await account.client.account()
        #expect(status.usedBytes <= 3_000_000)
        #expect(status.devices.first?.lastSnapshot?.snapshotID == good.snapshot.snapshotID)

        let tablet = try cloud.device("tablet")
        let tabletAccount = try await cloud.signIn(tablet, account: "dora", create: false)
        _ = try await CloudRestore.restore(device: tablet, account: tabletAccount, sourceDevice: account.deviceID)
        let restored = try tablet.app("com.example.notes").dataContainer()
        #expect(try restored.read("Documents/a.bin") == first)
        #expect(!restored.fileExists("Documents/b.bin"))
    }
}
