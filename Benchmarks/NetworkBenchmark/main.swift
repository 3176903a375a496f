import CacheManifest
import Container
import FileSystem
import Foundation
import NetworkTransfers
import NetworkConditions

// Issue 15's benchmark (release build), each figure beside its anchor in
// the same run:
//   1. re-fetching 1,000 purged files of 10 KB to 1 MB from a loopback
//      content-server process, against `curl --parallel` on the same files;
//   2. the launch check of a 10,000-entry manifest;
//   3. radio-on time of 100 small requests, coalesced against immediate.
// Usage: network-benchmark CONTENT_SERVER_BINARY WORK_DIR [files=1000] [parallel=8] [rounds=3] [--check-only]
// (--check-only: the launch check alone, part 2; --refetch-only: part 1 alone;
// --faults=FILE: the JSON array of faults in FILE is given to the server
// before the first fetch, which then reports each failed file's attempts and
// how many requests the server saw per file: the fault smoke run;
// --settle=SECONDS: each round waits that long after removing the last
// round's files before either side runs; 31 outlasts ext4's 30 s window of
// recently freed inodes.)

func now() -> Double { Date().timeIntervalSince1970 }
/// CPU time of the calling thread: on a machine shared with other work, the
/// launch check's own cost, whatever else runs.
func threadCPU() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
/// User and system CPU time of this process (`RUSAGE_SELF`) or of its
/// waited-for children (`RUSAGE_CHILDREN`): what each side spent, whatever
/// else the machine runs.
func processCPU(_ who: Int32) -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(who), &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}
func median(_ values: [Double]) -> Double { let s = values.sorted(); return s[s.count / 2] }
/// The 1-, 5- and 15-minute load averages: the machine is shared, and the
/// figures mean little without them.
func loadAverage() -> String {
    var loads = [Double](repeating: 0, count: 3)
    guard getloadavg(&loads, 3) == 3 else { return "?" }
    return loads.map { String(format: "%.2f", $0) }.joined(separator: " ")
}
/// Runs a program to its end; returns its wall and CPU time (its own and
/// its children's).
func timedRun(_ program: String, _ arguments: [String]) throws -> (wall: Double, cpu: Double, status: Int32) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    let start = now(), startCPU = processCPU(RUSAGE_CHILDREN.rawValue)
    try process.run()
    process.waitUntilExit()
    return (now() - start, processCPU(RUSAGE_CHILDREN.rawValue) - startCPU, process.terminationStatus)
}

let checkOnly = CommandLine.arguments.contains("--check-only")
let refetchOnly = CommandLine.arguments.contains("--refetch-only")
let faultsFile = CommandLine.arguments.first { $0.hasPrefix("--faults=") }.map { String($0.dropFirst("--faults=".count)) }
let settle = CommandLine.arguments.first { $0.hasPrefix("--settle=") }.flatMap { Double($0.dropFirst("--settle=".count)) } ?? 0
let arguments = CommandLine.arguments.filter {
    $0 != "--check-only" && $0 != "--refetch-only" && !$0.hasPrefix("--faults=") && !$0.hasPrefix("--settle=")
}
guard arguments.count >= 3 else {
    print("usage: network-benchmark CONTENT_SERVER WORK_DIR [files] [parallel] [rounds] [--check-only | --refetch-only] [--settle=SECONDS]")
    exit(2)
}
let serverBinary = arguments[1]
let work = URL(fileURLWithPath: arguments[2])
let fileCount = arguments.count > 3 ? Int(arguments[3]) ?? 1000 : 1000
let parallel = arguments.count > 4 ? Int(arguments[4]) ?? 8 : 8
let rounds = arguments.count > 5 ? Int(arguments[5]) ?? 3 : 3
let served = work.appendingPathComponent("served")
try FileSystemPaths.makeDirectories(atPath: served.path)

// The files: sizes spread from 10 KB to 1 MB, fixed seed.
struct LCG { var state: UInt64; mutating func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 } }
var random = LCG(state: 15)
var totalBytes = 0
for index in 0..<fileCount {
    let size = 10_000 + Int(random.next() % 990_001)
    totalBytes += size
    let path = served.appendingPathComponent("f\(index).bin").path
    if (try? FileSystemPaths.status(atPath: path))?.size == UInt64(size) { continue }
    var bytes = [UInt8](repeating: 0, count: size)
    for i in stride(from: 0, to: size, by: 8) { bytes[i] = UInt8(truncatingIfNeeded: i &+ index) }
    let data = Data(bytes)
    try FileSystemPaths.writeAtomically(data, toPath: path, options: AtomicWriteOptions(durability: .none))
}

// The server: its own process, as for curl.
let portFile = work.appendingPathComponent("port").path
try? FileSystemPaths.removeFile(atPath: portFile)
let server = Process()
server.executableURL = URL(fileURLWithPath: serverBinary)
server.arguments = ["--root", served.path, "--port", "0", "--port-file", portFile, "--exit-with-parent"]
server.standardOutput = FileHandle.nullDevice
try server.run()
var port = 0
for _ in 0..<500 {
    if let data = try? FileSystemPaths.readFile(atPath: portFile), let value = Int(String(decoding: data, as: UTF8.self)) { port = value; break }
    usleep(20_000)
}
guard port > 0 else { print("the content server did not start"); server.terminate(); exit(1) }
defer { kill(server.processIdentifier, SIGTERM); server.waitUntilExit() }
let base = "http://127.0.0.1:\(port)/"
print("files: \(fileCount), \(totalBytes) bytes, parallel \(parallel), server pid \(server.processIdentifier)")
// In a virtual machine with free page reporting (virtio-balloon), the host
// takes back memory the guest has freed, and the next write into such a
// page faults on the host inside the kernel's copy into the page cache:
// on this machine it made the same curl run take 1.0 to 2.5 s. The
// figures are comparable only with the setting printed beside them
// (`echo 11 > …/page_reporting_order` turns it off until a reboot; 9 is
// this machine's default).
func pageReporting() -> String {
    guard let data = try? FileSystemPaths.readFile(atPath: "/sys/module/page_reporting/parameters/page_reporting_order"),
          let order = Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    else { return "none" }
    // Blocks above the largest order (10) are never free: nothing is reported.
    return order > 10 ? "off (order \(order))" : "on (order \(order))"
}
print("free page reporting: " + pageReporting())

let home = work.appendingPathComponent("home")
try? FileSystemPaths.removeTree(atPath: home.path)
let container = try AppContainer.create(at: home, bundleName: "Bench")
let downloader = Downloader(configuration: DownloaderConfiguration(maxConnectionsPerHost: parallel))
if !checkOnly {
    // 1. Re-fetch after a purge, against curl --parallel.
    let cache = try CachedResources(container: container, downloader: downloader)
    let firstFetch = now()
    let problems = (0..<fileCount).map {
        CacheProblem(path: "Library/Caches/f\($0).bin", url: base + "f\($0).bin", reason: .missing, expectedSize: 0)
    }
    if let faultsFile {
        guard let faults = try FileSystemPaths.readFile(atPath: faultsFile) else { print("no file at \(faultsFile)"); exit(2) }
        let answer = try await downloader.send("POST", to: URL(string: base + "_control/faults")!, body: faults)
        guard answer.status < 300 else { print("the server refused the faults: \(answer.status)"); exit(1) }
    }
    let first = await cache.refetch(problems, concurrency: parallel)
    print(String(format: "first fetch (no manifest yet): %.3f s, %d fetched, %d failed", now() - firstFetch, first.fetched.count, first.failures.count))
    if faultsFile != nil {
        let stats = try await downloader.send("GET", to: URL(string: base + "_control/stats")!)
        let object = try JSONSerialization.jsonObject(with: stats.body) as? [String: Any]
        let requests = object?["requests"] as? [String: Int] ?? [:]
        var histogram: [Int: Int] = [:]
        for (_, count) in requests { histogram[count, default: 0] += 1 }
        print("faults injected: \(object?["faultsInjected"] ?? "?"); files by requests: "
              + histogram.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))
        for failure in first.failures {
            let name = "/" + (failure.path.split(separator: "/").last.map(String.init) ?? "")
            print("failed: \(failure.path), \(failure.error.attempts) attempts, \(requests["GET \(name)"] ?? 0) requests: \(failure.error)")
        }
        guard first.isComplete else { exit(3) }
    }

    var ours: [Double] = [], curls: [Double] = [], oursCPUs: [Double] = [], curlCPUs: [Double] = []
    let curlDirectory = work.appendingPathComponent("curl")
    var config = ""
    for index in 0..<fileCount { config += "url = \"\(base)f\(index).bin\"\noutput = \"\(curlDirectory.path)/f\(index).bin\"\n" }
    let configPath = work.appendingPathComponent("curl.config").path
    try FileSystemPaths.writeAtomically(Data(config.utf8), toPath: configPath)
    let curlFiles = (0..<fileCount).map { "\(curlDirectory.path)/f\($0).bin" }
    print("load average before: \(loadAverage())")
    // Ours: the launch check, then the re-fetch of everything.
    func runOurs() async throws -> (wall: Double, cpu: Double) {
        let start = now(), startCPU = processCPU(RUSAGE_SELF.rawValue)
        let report = try await cache.restoreMissing(concurrency: parallel)
        let result = (now() - start, processCPU(RUSAGE_SELF.rawValue) - startCPU)
        guard report.isComplete, report.fetched.count == fileCount else { print("re-fetch incomplete: \(report.failures.count) failures"); exit(1) }
        return result
    }
    // curl --parallel on the same files, same server, same parallelism.
    func runCurl() throws -> (wall: Double, cpu: Double) {
        let curl = try timedRun("/usr/bin/curl", ["--silent", "--no-progress-meter", "--fail", "--parallel", "--parallel-max", String(parallel),
                                                  "--config", configPath])
        guard curl.status == 0 else { print("curl failed: \(curl.status)"); exit(1) }
        return (curl.wall, curl.cpu)
    }
    for round in 0..<rounds {
        // Both sides' files of the last round go first: our purge of Caches
        // and curl's output directory, then one untimed flush, so that
        // neither side's flush writes what the other (or the purge) left
        // dirty. With --settle the round then waits: ext4 without a journal
        // (this machine's disk) skips at allocation every inode freed in the
        // last 30 s (`recently_deleted`), so a side that creates its files
        // just after 1,000 were freed pays for a scan the other may not. On
        // a device a purge happens while the app is not running, long before
        // the relaunch that fetches the files again.
        try container.removeItem("Library/Caches")
        try container.createDirectory("Library/Caches")
        try? FileSystemPaths.removeTree(atPath: curlDirectory.path)
        try FileSystemPaths.makeDirectories(atPath: curlDirectory.path)
        try container.synchronizeFileSystem()
        if settle > 0 { try await Task.sleep(for: .seconds(settle)) }
        // The sides take turns going first, each after the same untimed flush.
        let oursFirst = round % 2 == 0
        var ourRun = (wall: 0.0, cpu: 0.0), curlRun = (wall: 0.0, cpu: 0.0)
        if oursFirst { ourRun = try await runOurs() } else { curlRun = try runCurl() }
        try container.synchronizeFileSystem()
        if oursFirst { curlRun = try runCurl() } else { ourRun = try await runOurs() }
        ours.append(ourRun.wall)
        oursCPUs.append(ourRun.cpu)
        curls.append(curlRun.wall)
        curlCPUs.append(curlRun.cpu)
        // Not the anchor, for the record: what curl's files then cost to
        // hash (OpenSSL's SHA-256, with SHA-NI as ours; coreutils'
        // sha256sum has none) and to flush (syncfs), the work ours does and
        // curl does not.
        let hash = try timedRun("/usr/bin/openssl", ["dgst", "-sha256"] + curlFiles)
        let flushStart = now()
        try container.synchronizeFileSystem()
        let flush = now() - flushStart
        print("round \(round) (\(oursFirst ? "ours" : "curl") first): " + String(format: "ours %.3f s (%.0f MB/s, %.2f s CPU), curl --parallel %.3f s (%.0f MB/s, %.2f s CPU); "
                     + "then SHA-256 of curl's files (openssl dgst) %.3f s (%.2f s CPU), syncfs %.3f s",
                     ourRun.wall, Double(totalBytes) / ourRun.wall / 1e6, ourRun.cpu, curlRun.wall, Double(totalBytes) / curlRun.wall / 1e6,
                     curlRun.cpu, hash.wall, hash.cpu, flush) + "; load " + loadAverage())
    }
    let oursBest = ours.min() ?? 0, curlBest = curls.min() ?? 0
    print(String(format: "RESULT refetch: ours best %.3f s, median %.3f s (CPU median %.2f s); curl best %.3f s, median %.3f s (CPU median %.2f s); "
                 + "throughput ratio best %.2fx, median %.2fx of curl", oursBest, median(ours), median(oursCPUs), curlBest, median(curls),
                 median(curlCPUs), curlBest / oursBest, median(curls) / median(ours)))
}

if refetchOnly { await downloader.shutdown(); kill(server.processIdentifier, SIGTERM); server.waitUntilExit(); exit(0) }

// 2. The launch check of a 10,000-entry manifest.
let checkHome = work.appendingPathComponent("check-home")
try? FileSystemPaths.removeTree(atPath: checkHome.path)
let checkContainer = try AppContainer.create(at: checkHome, bundleName: "Check")
let manifest = try CacheManifest(container: checkContainer)
try checkContainer.createDirectory("Library/Caches/tiles")
for index in 0..<10_000 {
    let path = "Library/Caches/tiles/t\(index / 100)/\(index).png"
    if index % 100 == 0 { try checkContainer.createDirectory("Library/Caches/tiles/t\(index / 100)") }
    try checkContainer.writeAtomically(Data(count: 64), to: path, durability: .none)
    let info = try checkContainer.attributes(path)
    try manifest.record(CachedResource(path: path, url: "http://example.invalid/\(index)", size: 64, sha256: "", fetchedAt: 0,
                                       inode: Int64(info.inode), modifiedNanoseconds: info.modificationNanoseconds))
}
var checks: [Double] = [], checkCPU: [Double] = [], checkProcessCPU: [Double] = []
for _ in 0..<20 {
    // The check may split its look at the disk between threads: the
    // process's CPU time counts them all, the calling thread's only its own.
    let start = now(), cpu = threadCPU(), processStart = processCPU(RUSAGE_SELF.rawValue)
    let report = try manifest.check()
    checkCPU.append(threadCPU() - cpu)
    checkProcessCPU.append(processCPU(RUSAGE_SELF.rawValue) - processStart)
    checks.append(now() - start)
    guard report.healthy == 10_000 else { print("check saw \(report.problems.count) problems"); exit(1) }
}
print(String(format: "RESULT launch check of 10,000 entries: wall median %.2f ms, best %.2f ms; CPU median %.2f ms, best %.2f ms; process CPU median %.2f ms",
             median(checks) * 1000, checks.min()! * 1000, median(checkCPU) * 1000, checkCPU.min()! * 1000,
             median(checkProcessCPU) * 1000) + "; load " + loadAverage())

if checkOnly { await downloader.shutdown(); kill(server.processIdentifier, SIGTERM); server.waitUntilExit(); exit(0) }

// 3. Radio-on time: 100 small requests, one every 10 s of simulated time,
// sent at once against coalesced in 5-minute windows. Transfers run for
// real; their measured spans are laid on the simulated timeline.
let radio = RadioPowerModel()  // cellular, LTE's measured tail
let small = (0..<100).map { DownloadRequest(url: URL(string: base + "f\($0 % fileCount).bin")!, destination: "Library/Caches/radio/\($0).bin") }
let gap = 10.0, window = 300.0
var immediateSpans: [ClosedRange<Double>] = []
for (index, request) in small.enumerated() {
    let start = now()
    _ = try await downloader.download(request, into: container)
    let arrival = Double(index) * gap
    immediateSpans.append(arrival...(arrival + now() - start))
}
var coalescedSpans: [ClosedRange<Double>] = []
var batchStart = 0
while batchStart < small.count {
    let windowEnd = (Double(batchStart) * gap / window).rounded(.down) * window + window
    var batchEnd = batchStart
    while batchEnd < small.count, Double(batchEnd) * gap < windowEnd { batchEnd += 1 }
    let start = now()
    let batch = TransferBatcher(downloader: downloader, container: container, window: .seconds(3600), maxBatch: batchEnd - batchStart)
    await withTaskGroup(of: Void.self) { group in
        for request in small[batchStart..<batchEnd] { group.addTask { _ = try? await batch.enqueue(request) } }
    }
    coalescedSpans.append(windowEnd...(windowEnd + now() - start))
    batchStart = batchEnd
}
let immediateOn = radio.radioOnTime(for: immediateSpans), coalescedOn = radio.radioOnTime(for: coalescedSpans)
print(String(format: "RESULT radio-on time (tail %.1f s): immediate %.1f s, coalesced %.1f s, %.1fx less", radio.tail, immediateOn, coalescedOn, immediateOn / coalescedOn))
await downloader.shutdown()
