import Device
import FileSystem
import Foundation
import StorageAudit

// Issue 18's benchmark (release build): the storage audit of a device whose
// apps hold FILES files (default 1,000,000; BenchmarkTree describes the
// spread), against `du -s` and gdu on the same tree in the same run. Each
// competitor runs once untimed (warm page cache for all), then REPS rounds
// run each once in turn (so all meet the shared machine's load alike); the
// load average after each round is printed. The table gives the median and best wall time and the peak resident
// memory (the child's ru_maxrss, by GNU time).
//
// Rows:
//   du -s                      the anchor (GNU coreutils)
//   du -s -B1 --apparent-size  du's other total
//   gdu -n -p -s               gdu, non-interactive, summary only (parallel)
//   gdu -n -p -o FILE          gdu's JSON export (ncdu's format): the whole tree
//   FileSystem walkTree        the bare walk the audit is built on (lstat sizes, hard links once)
//   StorageAuditor (library)   `StorageAuditor().audit(device:)` in a child, timed inside it
//   sandbox audit --json       the release CLI as a whole process, JSON to /dev/null
//
// The tree is kept in WORK_DIR and reused by a later run with the same
// parameters (WORK_DIR/complete.txt); --remove deletes it at the end.
// Usage: audit-benchmark [WORK_DIR] [--files 1000000] [--apps 4] [--reps 5] [--no-gdu] [--remove]
//        audit-benchmark --child audit|walk DEVICE     (one timed run, used by the above)
//        audit-benchmark --child json DEVICE           (the audit as JSON, to compare two builds)

func seconds(since start: UInt64) -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }

struct Options {
    var work = "/tmp/audit-bench"
    var files = 1_000_000
    var apps = 4
    var repetitions = 5
    var remove = false
    var gdu = true
    var child: (mode: String, device: String)?

    init(_ arguments: [String]) {
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--files": files = Int(rest.popFirst() ?? "") ?? files
            case "--apps": apps = max(1, Int(rest.popFirst() ?? "") ?? apps)
            case "--reps": repetitions = max(1, Int(rest.popFirst() ?? "") ?? repetitions)
            case "--remove": remove = true
            case "--no-gdu": gdu = false
            case "--child": child = (rest.popFirst() ?? "", rest.popFirst() ?? "")
            default: work = argument
            }
        }
    }
}

/// One timed run in this process, printed as "<seconds> <what it found>".
func runChild(mode: String, device path: String) throws {
    let start = DispatchTime.now().uptimeNanoseconds
    switch mode {
    case "audit":
        let device = try Device.open(at: URL(fileURLWithPath: path))
        var auditor = StorageAuditor()
        let audit = try auditor.audit(device: device)
        let bytes = audit.apps.reduce(0) { $0 + $1.total.allocatedBytes }
        let files = audit.apps.reduce(0) { $0 + $1.total.files }
        let findings = audit.apps.reduce(0) { $0 + $1.findings.count }
        print(String(format: "%.4f", seconds(since: start)), "bytes=\(bytes) files=\(files) findings=\(findings)")
    case "json":
        // The whole audit as JSON (sorted keys), to compare two builds' output byte for byte.
        var auditor = StorageAuditor()
        let audit = try auditor.audit(device: try Device.open(at: URL(fileURLWithPath: path)))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        FileHandle.standardOutput.write(try encoder.encode(audit))
    case "walk":
        let handle = try DirectoryHandle(openingAt: path, followLinks: false)
        var seen: Set<[UInt64]> = []
        var bytes: UInt64 = 0, files = 0
        try handle.descriptor.walkTree { entry, _ throws(FileSystemError) in
            if entry.status.linkCount > 1 && !entry.status.isDirectory {
                guard seen.insert([entry.status.device, entry.status.inode]).inserted else { return .descend }
            }
            bytes += entry.status.allocatedBytes
            if !entry.status.isDirectory { files += 1 }
            return .descend
        }
        print(String(format: "%.4f", seconds(since: start)), "bytes=\(bytes) files=\(files)")
    default:
        throw BenchmarkFailure(description: "unknown child mode \(mode)")
    }
}

func run() throws {
    let options = Options(CommandLine.arguments)
    if let child = options.child { return try runChild(mode: child.mode, device: child.device) }
    let work = URL(fileURLWithPath: options.work)
    let tree = BenchmarkTree(root: work.appendingPathComponent("tree"), files: options.files, apps: options.apps)
    try FileSystemPaths.makeDirectories(atPath: work.path)

    if tree.isComplete {
        print("reusing the tree in \(tree.root.path) (\(options.files) files, \(options.apps) apps)")
    } else {
        // About 2.3 KiB of data and one inode a file, blocks of 4 KiB: ask for 6 KiB a file.
        let space = try FileSystemPaths.space(atPath: work.path)
        let needed = UInt64(options.files) * 6 * 1024 + (256 << 20)
        guard space.available >= needed else {
            throw BenchmarkFailure(description: String(format: "%@ has %.1f GB free; %d files need about %.1f GB: pass a smaller --files",
                                                       work.path, Double(space.available) / 1e9, options.files, Double(needed) / 1e9))
        }
        print("building \(options.files) files in \(options.apps) apps under \(tree.root.path)")
        let start = DispatchTime.now().uptimeNanoseconds
        try tree.build()
        print(String(format: "built in %.1f s", seconds(since: start)))
    }

    let device = tree.device.path
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    let sandbox = executable.deletingLastPathComponent().appendingPathComponent("sandbox").path
    let timer = ProgramTimer(scratch: work)
    let reps = options.repetitions
    let gduJSON = work.appendingPathComponent("gdu.json").path
    var competitors = [
        Competitor(name: "du -s", arguments: ["du", "-s", device]),
        Competitor(name: "du -s -B1 --apparent-size", arguments: ["du", "-s", "-B1", "--apparent-size", device]),
    ]
    if options.gdu {
        competitors += [
            Competitor(name: "gdu -n -p -s", arguments: ["gdu", "-n", "-p", "-s", device]),
            Competitor(name: "gdu -n -p -o FILE (JSON export)", arguments: ["gdu", "-n", "-p", "-o", gduJSON, device]),
        ]
    }
    competitors += [
        Competitor(name: "FileSystem walkTree (bare walk)", arguments: [executable.path, "--child", "walk", device], insideSeconds: true),
        Competitor(name: "StorageAuditor().audit(device:) (library)", arguments: [executable.path, "--child", "audit", device],
                   insideSeconds: true),
    ]
    if FileSystemPaths.isExecutable(atPath: sandbox) {
        competitors.append(Competitor(name: "sandbox audit --json (whole process)", arguments: [sandbox, "audit", "--device", device, "--json"]))
    } else {
        print("(no sandbox executable beside this one: build it with -c release to time the CLI)")
    }
    let (rows, loads) = try timer.measure(competitors, repetitions: reps)
    try? FileSystemPaths.removeFile(atPath: gduJSON)

    let anchor = rows[0].median
    print("\n\(options.files) files in \(options.apps) apps, \(reps) rounds of one timed run each after one untimed (page cache warm); "
          + "load average after each round: \(loads.joined(separator: ", ")); \(ProcessInfo.processInfo.activeProcessorCount) cores\n")
    // Beside the ratio of medians, the median of each round's ratio to that
    // round's du -s, which a change of load between rounds moves less.
    print("| | median | best | × du -s (median) | × du -s (median of rounds) | peak memory |")
    print("|---|---|---|---|---|---|")
    for row in rows {
        let ratios = zip(row.seconds, rows[0].seconds).map { $0 / $1 }.sorted()
        print(String(format: "| %@ | %.3f s | %.3f s | %.2f× | %.2f× | %.1f MB |", row.name, row.median, row.best, row.median / anchor,
                     ratios[ratios.count / 2], row.peakMegabytes))
    }
    print("\nseconds of each round:")
    for row in rows { print("  \(row.name): \(row.seconds.map { String(format: "%.2f", $0) }.joined(separator: " "))") }
    print("\nwhat each printed last:")
    for row in rows { print("  \(row.name): \(row.output)") }
    if options.remove {
        _ = try FileSystemPaths.removeTree(atPath: tree.root.path)
        print("removed \(tree.root.path)")
    }
}

do { try run() } catch {
    print("audit-benchmark failed: \(error)")
    exit(1)
}
