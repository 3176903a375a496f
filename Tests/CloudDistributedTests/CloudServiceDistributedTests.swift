import CloudBackup
import CloudProtocol
import CloudService
import CloudTestSupport
import Crypto
import Device
import Foundation
import Testing
import TestSupport

extension OnTheDistributedStack {
    /// The service on OpenStack Swift and PostgreSQL: the same guarantees as
    /// on the embedded default, with real replicas and real server processes.
    @Suite struct CloudServiceDistributedTests {
        static var stackFile: String { get throws { try DistributedStack.configuration().dir + "/stack.json" } }
        /// Account names of this run, so tests on one long-lived stack never meet.
        static func name(_ base: String) -> String { "\(base)-\(UUID().uuidString.prefix(8).lowercased())" }

        @Test func threeDevicesOnTwoAccountsBackingUpAtOnceStoreSharedContentOncePerAccount() async throws {
            let cloud = try await CloudFixture("distributed-dedup", storage: try CloudStorageConfiguration.distributed(contentsOf: try Self.stackFile))
            defer { Task { await cloud.stop() } }
            let ann = Self.name("ann"), ben = Self.name("ben")
            let shared = CloudFixture.bytes(3 * 1024 * 1024, seed: 77)
            var devices: [(Device, CloudAccount)] = []
            for (index, (name, account)) in [("ann-phone", ann), ("ann-tablet", ann), ("ben-phone", ben)].enumerated() {
                let device = try cloud.device(name)
                let container = try device.app("com.example.notes").dataContainer()
                try container.writeAtomically(shared, to: "Documents/shared.bin")
                try container.writeAtomically(CloudFixture.bytes(32 * 1024, seed: UInt64(index)), to: "Documents/own.bin")
                devices.append((device, try await cloud.signIn(device, account: account, create: index != 1)))
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (device, account) in devices {
                    group.addTask { _ = try await CloudBackup.backUp(device: device, account: account, now: true) }
                }
                try await group.waitForAll()
            }
            let totals = try await cloud.ledger.totals()
            let sharedBytes = Int64(shared.count)
            for name in [ann, ben] {
                let used = try #require(totals.accounts.first { $0.name == name }).used
                #expect(used >= sharedBytes)
                #expect(used < sharedBytes + sharedBytes / 4, "\(name) stores the shared file once: \(used) bytes")
            }
            // Every chunk of a snapshot reads back from Swift, bit-identical.
            let tablet = try cloud.device("ben-tablet")
            let tabletAccount = try await cloud.signIn(tablet, account: ben, create: false)
            _ = try await CloudRestore.restore(device: tablet, account: tabletAccount, sourceDevice: devices[2].1.deviceID)
            #expect(try tablet.app("com.example.notes").dataContainer().read("Documents/shared.bin") == shared)
        }

        @Test func quotaRacesThroughTwoServerProcessesNeverPassTheQuota() async throws {
            let stack = try Self.stackFile
            let quota: Int64 = 600_000
            let first = try ServiceProcess(stack: stack, quota: quota)
            let second = try ServiceProcess(stack: stack, quota: quota)
            defer {
                first.stop()
                second.stop()
            }
            let account = Self.name("racer")
            let authKey = Data(repeating: 9, count: 32).base64EncodedString()
            _ = try await CloudClient(baseURL: first.url).createAccount(CreateAccountRequest(account: account, authKey: authKey))
            let chunkSize = 10_000
            let stored = try await withThrowingTaskGroup(of: Int.self) { group in
                for deviceIndex in 0..<4 {
                    group.addTask {
                        let url = deviceIndex % 2 == 0 ? first.url : second.url
                        let answer = try await CloudClient(baseURL: url).signIn(SignInRequest(account: account, authKey: authKey,
                                                                                              deviceName: "d\(deviceIndex)", udid: "d\(deviceIndex)"))
                        let client = CloudClient(baseURL: url, token: answer.token)
                        let session = try await client.openSession().sessionID
                        var accepted = 0
                        for index in 0..<25 {
                            let bytes = [UInt8](CloudFixture.bytes(chunkSize, seed: UInt64(deviceIndex * 100 + index)))
                            do {
                                _ = try await client.upload(bytes, id: ChunkID(digest: SHA256.hash(data: bytes)), session: session)
                                accepted += 1
                            } catch let error as CloudBackupError where error.code == .quotaExceeded {
                                continue
                            }
                        }
                        return accepted
                    }
                }
                return try await group.reduce(0, +)
            }
            let configuration = try CloudStorageConfiguration.distributed(contentsOf: stack)
            let (_, database) = try await configuration.open()
            let totals = try await Ledger(database: database).totals()
            await database.close()
            let used = try #require(totals.accounts.first { $0.name == account }).used
            #expect(stored < 100)
            #expect(used <= quota)
            #expect(used == Int64(stored * chunkSize))
            #expect(used > quota - Int64(chunkSize))
        }

        @Test func aStorageNodeKilledMidBackupThenTheServerKilledMidUploadStillRestoreBitIdentical() async throws {
            try await DistributedStack.reviving {
                let stack = try Self.stackFile
                let temp = try TemporaryDirectory("distributed-kill")
                var server = try ServiceProcess(stack: stack)
                let port = server.port
                defer { server.stop() }
                let account = Self.name("kim")
                let phone = try Device.create(at: temp.url.appendingPathComponent("phone"), name: "phone")
                _ = try phone.install(bundleAt: try CloudFixture.bundle(in: temp.url.appendingPathComponent("bundle"), identifier: "com.example.notes"))
                let container = try phone.app("com.example.notes").dataContainer()
                func write(_ version: Int, files: Int) throws -> [String: Data] {
                    var written: [String: Data] = [:]
                    for index in 0..<files {
                        let data = CloudFixture.bytes(200_000, seed: UInt64(version * 1000 + index))
                        written["Documents/v\(version)-\(index).bin"] = data
                        try container.writeAtomically(data, to: "Documents/v\(version)-\(index).bin")
                    }
                    return written
                }
                let signedIn = try await CloudAccount.signIn(device: phone, service: server.url, account: account, password: "pw", create: true,
                                                             rounds: CloudFixture.rounds)
                // v1, then v2 with a storage node killed while it uploads.
                var expected = try write(1, files: 5)
                _ = try await CloudBackup.backUp(device: phone, account: signedIn, now: true)
                expected.merge(try write(2, files: 30)) { $1 }
                let v2 = Task { try await CloudBackup.backUp(device: phone, account: signedIn, now: true, concurrency: 2) }
                try await Task.sleep(nanoseconds: 300_000_000)
                try DistributedStack.run(["kill-node", "2"])
                let v2Report = try await v2.value
                #expect(v2Report.chunksSent >= 30)

                // v3: the server process killed mid-upload; v2 stays current.
                let v3Files = try write(3, files: 40)
                let v3 = Task { try await CloudBackup.backUp(device: phone, account: signedIn, now: true, concurrency: 2) }
                try await Task.sleep(nanoseconds: 500_000_000)
                server.kill()
                let v3Outcome = await v3.result
                #expect(throws: CloudBackupError.self) { try v3Outcome.get() }

                server = try ServiceProcess(stack: stack, port: port)
                let tablet = try Device.create(at: temp.url.appendingPathComponent("tablet"), name: "tablet")
                _ = try tablet.install(bundleAt: try CloudFixture.bundle(in: temp.url.appendingPathComponent("bundle2"), identifier: "com.example.notes"))
                let tabletAccount = try await CloudAccount.signIn(device: tablet, service: server.url, account: account, password: "pw",
                                                                  create: false, rounds: CloudFixture.rounds)
                _ = try await CloudRestore.restore(device: tablet, account: tabletAccount, sourceDevice: signedIn.deviceID)
                let restored = try tablet.app("com.example.notes").dataContainer()
                for (path, data) in expected { #expect(try restored.read(path) == data, "\(path) differs after the restore of v2") }
                #expect(!restored.fileExists("Documents/v3-0.bin"))

                // The retry completes v3 (node 2 still down) and restores bit-identical.
                _ = try await CloudBackup.backUp(device: phone, account: signedIn, now: true)
                _ = try await CloudRestore.restore(device: tablet, account: tabletAccount, sourceDevice: signedIn.deviceID)
                let again = try tablet.app("com.example.notes").dataContainer()
                for (path, data) in expected.merging(v3Files, uniquingKeysWith: { $1 }) { #expect(try again.read(path) == data) }
            }
        }
    }
}
