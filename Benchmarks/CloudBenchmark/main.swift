import CloudBackup
import CloudProtocol
import CloudService
import Device
import FileSystem
import Foundation
import Logging

// Issue 17's benchmark (release build), beside restic on the same storage
// in the same run:
//   1. DEVICES simulated devices (one app, MEGABYTES of Documents each; 80 %
//      of it shared by the devices of one account, 20 % their own) back up
//      at once to the service (two servers on one storage);
//   2. one device changes 1 % of its data and backs up again;
//   3. that device's snapshot is restored onto a new device.
// Then the same three steps with restic: one repository per account, the
// devices' Documents directories backed up at once, the change, a restore.
// Storage: the embedded default (a directory and SQLite; restic: a local
// repository), or with --stack the distributed stack (OpenStack Swift and
// PostgreSQL; restic: its swift: backend on the same ring).
// Usage: cloud-benchmark WORK_DIR [--devices 50] [--accounts 5] [--megabytes 20] [--stack stack.json] [--no-restic]

func now() -> Double { Date().timeIntervalSince1970 }

struct Options {
    var work = ""
    var devices = 50
    var accounts = 5
    var megabytes = 20
    var stack: String?
    var restic = true

    init(_ arguments: [String]) {
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--devices": devices = Int(rest.popFirst() ?? "") ?? devices
            case "--accounts": accounts = Int(rest.popFirst() ?? "") ?? accounts
            case "--megabytes": megabytes = Int(rest.popFirst() ?? "") ?? megabytes
            case "--stack": stack = rest.popFirst()
            case "--no-restic": restic = false
            default: work = argument
            }
        }
    }
}

/// Fast deterministic bytes (xorshift64*), incompressible like media.
func bytes(_ count: Int, seed: UInt64) -> Data {
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    var words = [UInt64](repeating: 0, count: (count + 7) / 8)
    for index in words.indices {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        words[index] = state &* 0x2545_F491_4F6C_DD1D
    }
    return words.withUnsafeBytes { Data($0.prefix(count)) }
}

func bundle(in directory: URL) throws -> URL {
    let app = directory.appendingPathComponent("Bench.app", isDirectory: true)
    try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
    let info = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>CFBundleExecutable</key><string>Bench</string>
        <key>CFBundleIdentifier</key><string>com.example.bench</string><key>CFBundleVersion</key><string>1</string>
        <key>CFBundleShortVersionString</key><string>1.0</string></dict></plist>
        """
    try Data(info.utf8).write(to: app.appendingPathComponent("Info.plist"))
    try Data("#!/bin/sh\n".utf8).write(to: app.appendingPathComponent("Bench"))
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: app.appendingPathComponent("Bench").path)
    return app
}

@discardableResult
func shell(_ command: String, environment: [String: String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self))
}

func run() async throws {
    let options = Options(CommandLine.arguments)
    guard !options.work.isEmpty else {
        print("usage: cloud-benchmark WORK_DIR [--devices 50] [--accounts 5] [--megabytes 20] [--stack stack.json] [--no-restic]")
        exit(64)
    }
    let work = URL(fileURLWithPath: options.work)
    try FileSystemPaths.removeTree(atPath: work.path)
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    let storage: CloudStorageConfiguration = try options.stack.map { try CloudStorageConfiguration.distributed(contentsOf: $0) }
        ?? .embedded(directory: work.appendingPathComponent("service").path)
    var logger = Logger(label: "cloud-benchmark")
    logger.logLevel = .critical
    var services: [CloudService] = []
    for _ in 0..<2 {
        services.append(try await CloudService.open(storage, adminToken: nil, accountCreation: .open(perMinute: 100_000), logger: logger))
    }
    var servers: [CloudServer] = []
    for service in services { servers.append(try await CloudServer.start(service, gcInterval: nil)) }
    print("storage: \(storage.summary)")

    // The devices and their data.
    let size = options.megabytes * 1_000_000
    let sharedFiles = 16, ownFiles = 4
    let fileSize = size / (sharedFiles + ownFiles)
    let app = try bundle(in: work.appendingPathComponent("bundle"))
    var devices: [(device: Device, account: Int)] = []
    let setupStart = now()
    for index in 0..<options.devices {
        let device = try Device.create(at: work.appendingPathComponent("devices/d\(index)"), name: "Device \(index)")
        _ = try device.install(bundleAt: app)
        let container = try device.app("com.example.bench").dataContainer()
        let account = index % options.accounts
        for file in 0..<sharedFiles {
            try container.writeAtomically(bytes(fileSize, seed: UInt64(account * 1000 + file + 1)), to: "Documents/shared\(file).bin", durability: .none)
        }
        for file in 0..<ownFiles {
            try container.writeAtomically(bytes(fileSize, seed: UInt64(1_000_000 + index * 1000 + file)), to: "Documents/own\(file).bin", durability: .none)
        }
        devices.append((device, account))
    }
    let uniqueContent = Int64(options.accounts * sharedFiles * fileSize + options.devices * ownFiles * fileSize)
    print(String(format: "setup: %d devices × %d MB, %d accounts, unique content %.1f MB (%.1f s)", options.devices, options.megabytes,
                 options.accounts, Double(uniqueContent) / 1e6, now() - setupStart))

    var signedIn: [CloudAccount] = []
    for (index, (device, account)) in devices.enumerated() {
        let url = servers[index % servers.count].baseURL
        signedIn.append(try await CloudAccount.signIn(device: device, service: url, account: "account\(account)", password: "pw\(account)",
                                                      create: index < options.accounts, rounds: 1000))
    }

    // 1. Everyone backs up at once.
    let backupStart = now()
    let outcomes = await withTaskGroup(of: Result<CloudBackupReport, CloudBackupError>.self) { group in
        for (index, (device, _)) in devices.enumerated() {
            let account = signedIn[index]
            group.addTask {
                do throws(CloudBackupError) {
                    return .success(try await CloudBackup.backUp(device: device, account: account, now: true, concurrency: 4))
                } catch {
                    return .failure(error)
                }
            }
        }
        var outcomes: [Result<CloudBackupReport, CloudBackupError>] = []
        for await outcome in group { outcomes.append(outcome) }
        return outcomes
    }
    let backupSeconds = now() - backupStart
    let failures = outcomes.filter { if case .failure = $0 { true } else { false } }
    for case .failure(let error) in outcomes.prefix(3) { print("failure: \(error)") }
    let totals = try await services[0].ledger.totals()
    let overruns = totals.accounts.filter { $0.used > $0.quota }.count
    print(String(format: "ours: %d concurrent backups in %.2f s, %d failed, %d quota overruns; stored %.1f MB = %.3f× the unique content",
                 options.devices, backupSeconds, failures.count, overruns, Double(totals.storedBytes) / 1e6,
                 Double(totals.storedBytes) / Double(uniqueContent)))

    // 1'. The anchor: restic on the same storage, same data, same run.
    var resticBackup = 0.0
    var environment = ["RESTIC_PASSWORD": "bench"]
    var repositoryList: [String] = []
    if options.restic {
        var repositories = (0..<options.accounts).map { work.appendingPathComponent("restic/account\($0)").path }
        if let stack = options.stack {
            let env = URL(fileURLWithPath: stack).deletingLastPathComponent().appendingPathComponent("stack.env").path
            for line in (try String(contentsOfFile: env, encoding: .utf8)).split(separator: "\n") {
                let trimmed = line.replacingOccurrences(of: "export ", with: "")
                guard let equals = trimmed.firstIndex(of: "=") else { continue }
                environment[String(trimmed[..<equals])] = String(trimmed[trimmed.index(after: equals)...]).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            }
            let stamp = Int(now())
            repositories = (0..<options.accounts).map { "swift:restic-\(stamp)-account\($0):/" }
        }
        let environmentCopy = environment
        repositoryList = repositories
        for account in 0..<options.accounts {
            let result = try shell("restic init --repo '\(repositoryList[account])'", environment: environment)
            guard result.status == 0 else { print("restic init failed: \(result.output)"); return }
        }
        let resticStart = now()
        let resticFailures = await withTaskGroup(of: Bool.self) { group in
            for (index, (device, account)) in devices.enumerated() {
                let path = (try? device.app("com.example.bench").dataContainer().url(forRelativePath: "Documents").path) ?? ""
                let repository = repositories[account]
                group.addTask {
                    let result = try? shell("restic backup --quiet --repo '\(repository)' --host d\(index) '\(path)'",
                                            environment: environmentCopy)
                    return result?.status == 0
                }
            }
            var failed = 0
            for await ok in group where !ok { failed += 1 }
            return failed
        }
        resticBackup = now() - resticStart
        print(String(format: "restic: %d concurrent backups in %.2f s, %d failed", options.devices, resticBackup, resticFailures))
    }

    // 2. One device changes 1 % and backs up again.
    let changed = devices[0].device
    let container = try changed.app("com.example.bench").dataContainer()
    var own = try container.read("Documents/own0.bin")
    let changedBytes = size / 100
    own.replaceSubrange(0..<changedBytes, with: bytes(changedBytes, seed: 424_242))
    try container.writeAtomically(own, to: "Documents/own0.bin")
    let incrementalStart = now()
    let incremental = try await CloudBackup.backUp(device: changed, account: signedIn[0], now: true)
    let incrementalSeconds = now() - incrementalStart
    print(String(format: "ours: incremental after a 1 %% change: %d chunks sent (%.2f MB), %d already stored, %.2f s",
                 incremental.chunksSent, Double(incremental.bytesSent) / 1e6, incremental.chunksAlreadyStored, incrementalSeconds))

    // 3. Restore onto a new device.
    let fresh = try Device.create(at: work.appendingPathComponent("devices/restored"), name: "Restored")
    _ = try fresh.install(bundleAt: app)
    let freshAccount = try await CloudAccount.signIn(device: fresh, service: servers[0].baseURL, account: "account0", password: "pw0",
                                                     create: false, rounds: 1000)
    let restoreStart = now()
    let restored = try await CloudRestore.restore(device: fresh, account: freshAccount, sourceDevice: signedIn[0].deviceID)
    let restoreSeconds = now() - restoreStart
    let identical = try fresh.app("com.example.bench").dataContainer().read("Documents/own0.bin") == own
    print(String(format: "ours: restore of %.1f MB in %.2f s, bit-identical: %@", Double(restored.bytes) / 1e6, restoreSeconds,
                 identical ? "yes" : "NO"))
    for server in servers { await server.stop() }
    guard options.restic else { return }

    let path = try devices[0].device.app("com.example.bench").dataContainer().url(forRelativePath: "Documents").path
    let resticIncrementalStart = now()
    let incrementalResult = try shell("restic backup --repo '\(repositoryList[0])' --host d0 '\(path)'", environment: environment)
    let resticIncremental = now() - resticIncrementalStart
    let added = incrementalResult.output.split(separator: "\n").first { $0.contains("Added to the repo") || $0.contains("Added to the repository") }
    print(String(format: "restic: incremental %.2f s (%@)", resticIncremental, added.map(String.init) ?? "?"))
    let target = work.appendingPathComponent("restic-restore").path
    let resticRestoreStart = now()
    let restoreResult = try shell("restic restore latest --repo '\(repositoryList[0])' --host d0 --target '\(target)'", environment: environment)
    let resticRestore = now() - resticRestoreStart
    print(String(format: "restic: restore %.2f s (status %d)", resticRestore, restoreResult.status))
    print(String(format: "ratio ours/restic: backup %.2f×, restore %.2f×", backupSeconds / resticBackup, restoreSeconds / resticRestore))
}

do { try await run() } catch {
    print("cloud-benchmark failed: \(error)")
    exit(1)
}
