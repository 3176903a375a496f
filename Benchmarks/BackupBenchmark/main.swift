// backup-benchmark: our MobileBackup writer and reader next to restic and borg
// on one generated app tree (10,000 files, ≈ 1 GB of random bytes).
// Usage: backup-benchmark [--files N] [--work DIR] [--keep] [--ours-only] [--ours-first] [--concurrency N]
//        backup-benchmark --manifest-rows N [--work DIR] [--keep] [--anchor-first]
//            (open, extract, restore of an N-row manifest, and tar -x of the same tree)
// Not run in CI. Results go in docs/PERFORMANCE.md ("Backup").
import Container
import Device
import FileSystem
import Foundation
import MobileBackup

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
let fileCount = Int(option("--files") ?? "") ?? 10_000
let work = URL(fileURLWithPath: option("--work") ?? FileManager.default.temporaryDirectory.appendingPathComponent("backup-benchmark").path)
let keep = arguments.contains("--keep")
if let rows = option("--manifest-rows").flatMap({ Int($0) }) {
    var benchmark = ManifestScaleBenchmark(rows: rows, work: work, keep: keep)
    benchmark.anchorFirst = arguments.contains("--anchor-first")
    try benchmark.run()
    exit(0)
}
let onlyOurs = arguments.contains("--ours-only")

/// Flushes what earlier steps left dirty, so no step pays for another's write-back.
func settle() {
    sync()
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    settle()
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// Bytes a directory occupies on disk, each inode once (payloads hard-linked between runs count once).
func storedBytes(_ directory: URL) -> Int64 {
    var seen = Set<UInt64>()
    var total: Int64 = 0
    guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return 0 }
    for case let url as URL in walker {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let inode = attributes[.systemFileNumber] as? UInt64, seen.insert(inode).inserted else { continue }
        total += Int64(attributes[.size] as? Int ?? 0)
    }
    return total
}

struct Row {
    var tool: String
    var full = Double.nan, noChange = Double.nan, incremental = Double.nan, restore = Double.nan
    var stored: Int64 = 0
    var note = ""
}

let tree = BenchmarkTree(root: work.appendingPathComponent("tree"), fileCount: fileCount)
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
print("generating \(fileCount) files under \(tree.root.path) …")
let treeBytes = try tree.generate()
print("tree: \(fileCount) files, \(treeBytes) bytes")

let bundleID = "com.example.bench"
let device = BackupDeviceInfo(udid: "00008110-BENCH0000000001E", deviceName: "Benchmark iPhone", imei: "350000000000000")
func source() -> [BackupDomainSource] {
    [BackupDomainSource(domain: "AppDomain-" + bundleID, root: tree.root) { path, _ in
        !(path == "tmp" || path.hasPrefix("tmp/") || path == "Library/Caches" || path.hasPrefix("Library/Caches/"))
    }]
}

// Each tool's state directory; removed first so every run starts from nothing.
let ours = work.appendingPathComponent("ours/\(device.udid)")
let resticRepo = work.appendingPathComponent("restic-repo")
let borgRepo = work.appendingPathComponent("borg-repo")
for directory in [ours.deletingLastPathComponent(), resticRepo, borgRepo] { try? FileManager.default.removeItem(at: directory) }
try FileManager.default.createDirectory(at: ours.deletingLastPathComponent(), withIntermediateDirectories: true)

// Which tool writes first matters on a shared disk (the first pays for write-back
// left by earlier work); `--ours-first` puts ours first, the default puts it last.
let oursFirst = arguments.contains("--ours-first")
var rows: [Row] = []
let concurrency = Int(option("--concurrency") ?? "") ?? ProcessInfo.processInfo.activeProcessorCount
let writer = BackupWriter(directory: ours, device: device, options: BackupOptions(concurrency: concurrency))
var oursRow = Row(tool: "Sandbox MobileBackup")
@MainActor func oursFullAndNoChange() throws {
    settle()
    oursRow.full = try writer.backUp(source()).seconds
    settle()
    let noChange = try writer.backUp(source())
    oursRow.noChange = noChange.seconds
    print("ours: full \(oursRow.full) s, no-change \(oursRow.noChange) s (reused \(noChange.payloadsReused))")
}
if oursFirst { try oursFullAndNoChange() }
var restic: ExternalTool?
if !onlyOurs, let path = ExternalTool.find("restic") {
    restic = ExternalTool(name: "restic", executable: path, environment: ["RESTIC_PASSWORD": "benchmark", "RESTIC_CACHE_DIR": work.appendingPathComponent("restic-cache").path])
}
var borg: ExternalTool?
if !onlyOurs, let path = ExternalTool.find("borg") {
    borg = ExternalTool(name: "borg", executable: path, environment: ["BORG_PASSPHRASE": "benchmark", "BORG_BASE_DIR": work.appendingPathComponent("borg-home").path,
                                                                     "BORG_UNKNOWN_UNENCRYPTED_REPO_ACCESS_IS_OK": "yes", "BORG_RELOCATED_REPO_ACCESS_IS_OK": "yes"])
}
var resticRow = Row(tool: "restic 0.14 (init + backup)")
var borgRow = Row(tool: "borg 1.2 (repokey, lz4)")
if let restic {
    resticRow.full = try seconds {
        try restic.run(["init", "--repo", resticRepo.path])
        try restic.run(["backup", "--repo", resticRepo.path, "--exclude", tree.root.path + "/tmp", "--exclude", tree.root.path + "/Library/Caches", tree.root.path])
    }
    resticRow.noChange = try seconds { try restic.run(["backup", "--repo", resticRepo.path, tree.root.path]) }
    print("restic: full \(resticRow.full) s, no-change \(resticRow.noChange) s")
} else { print("restic: not installed, skipped") }
if let borg {
    borgRow.full = try seconds {
        try borg.run(["init", "--encryption=repokey", borgRepo.path])
        try borg.run(["create", "--compression", "lz4", borgRepo.path + "::full", tree.root.path])
    }
    borgRow.noChange = try seconds { try borg.run(["create", "--compression", "lz4", borgRepo.path + "::nochange", tree.root.path]) }
    print("borg: full \(borgRow.full) s, no-change \(borgRow.noChange) s")
} else { print("borg: not installed, skipped") }

if !oursFirst { try oursFullAndNoChange() }

let changed = try tree.mutateOnePercent(round: 0)
print("changed \(changed) files (4 KiB each, in place)")
settle()
let summary = try writer.backUp(source())
oursRow.incremental = summary.seconds
print("ours: incremental \(oursRow.incremental) s (copied \(summary.payloadsCopied), reused \(summary.payloadsReused))")
if let restic {
    resticRow.incremental = try seconds { try restic.run(["backup", "--repo", resticRepo.path, tree.root.path]) }
}
if let borg {
    borgRow.incremental = try seconds { try borg.run(["create", "--compression", "lz4", borgRepo.path + "::incremental", tree.root.path]) }
}

// Restores into fresh directories.
let restoreRoot = work.appendingPathComponent("restores")
try? FileManager.default.removeItem(at: restoreRoot)
try FileManager.default.createDirectory(at: restoreRoot, withIntermediateDirectories: true)
var restoreReport = RestoreReport()
oursRow.restore = try seconds {
    let reader = try BackupReader(directory: ours)
    let container = try AppContainer.create(at: restoreRoot.appendingPathComponent("ours"))
    restoreReport = try BackupRestorer(reader).restoreApp(bundleID: bundleID, into: try DirectoryHandle(openingAt: container.root.path), layout: .container(.app))
}
print("ours: restore \(oursRow.restore) s (\(restoreReport.restoredFiles) files, \(restoreReport.problems.count) problems)")
oursRow.stored = storedBytes(ours)
if let restic {
    resticRow.restore = try seconds { try restic.run(["restore", "latest", "--repo", resticRepo.path, "--target", restoreRoot.appendingPathComponent("restic").path]) }
    resticRow.stored = storedBytes(resticRepo)
}
if let borg {
    let target = restoreRoot.appendingPathComponent("borg")
    try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
    borgRow.restore = try seconds { try borg.run(["extract", borgRepo.path + "::incremental"], in: target) }
    borgRow.stored = storedBytes(borgRepo)
}
rows.append(oursRow)
if restic != nil { rows.append(resticRow) }
if borg != nil { rows.append(borgRow) }

func cell(_ value: Double) -> String { value.isNaN ? "—" : String(format: "%.2f s", value) }
print("")
print("| tool | full backup | no-change | incremental (1 %) | full restore | bytes stored |")
print("|---|---|---|---|---|---|")
for row in rows {
    print("| \(row.tool) | \(cell(row.full)) | \(cell(row.noChange)) | \(cell(row.incremental)) | \(cell(row.restore)) | \(row.stored) |")
}
if !keep {
    for directory in [ours.deletingLastPathComponent(), resticRepo, borgRepo, restoreRoot] { try? FileManager.default.removeItem(at: directory) }
}
