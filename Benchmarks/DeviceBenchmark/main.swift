import Container
import Device
import Foundation
import PropertyList

// device-benchmark: the device's purge against `rm -rf` on an identical
// tree in the same run, and install and update of apps with 10,000 files.
// Build in release mode: `swift build -c release --product device-benchmark`.
//
//   device-benchmark [--files N] [--rounds R] [--app-files N]
//
// The trees are written, then `sync` runs, before anything is timed, so
// neither side pays for the other's write-back. Purge and rm alternate in
// order from round to round (keep the count even: on a busy disk whichever
// runs first pays for the journal's backlog); the median round is reported.

func log(_ message: String) { FileHandle.standardError.write(Data((message + "\n").utf8)) }

func option(_ name: String, default value: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count, let parsed = Int(arguments[index + 1]) else {
        return value
    }
    return parsed
}

let fileCount = option("--files", default: 100_000)
let rounds = option("--rounds", default: 4)
let appFiles = option("--app-files", default: 10_000)

let clock = ContinuousClock()
func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = clock.now
    try body()
    let (whole, fraction) = start.duration(to: clock.now).components
    return Double(whole) + Double(fraction) * 1e-18
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

func run(_ path: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "\(path) \(arguments) failed"])
    }
}

/// `count` files of 512 B – 4 KiB in folders of 1,000 (a cache's shape:
/// many small files, a few levels deep).
func writeTree(at root: URL, count: Int) throws {
    let manager = FileManager.default
    var folder = root
    for index in 0..<count {
        if index % 1000 == 0 {
            folder = root.appendingPathComponent("d\(index / 1000 / 10)/e\(index / 1000)", isDirectory: true)
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let size = 512 + (index * 7919) % 3584
        try Data(repeating: UInt8(truncatingIfNeeded: index), count: size).write(to: folder.appendingPathComponent("f\(index).bin"))
    }
}

func makeBundle(at folder: URL, version: String, files: Int) throws -> URL {
    let bundle = folder.appendingPathComponent("Bench.app", isDirectory: true)
    try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
    let info: PropertyListValue = ["CFBundleIdentifier": "com.example.bench", "CFBundleVersion": .string(version),
                                   "CFBundleExecutable": "Bench"]
    try info.encoded(as: .xml).write(to: bundle.appendingPathComponent("Info.plist"))
    try Data("#!/bin/sh\n".utf8).write(to: bundle.appendingPathComponent("Bench"))
    if files > 0 { try writeTree(at: bundle.appendingPathComponent("Resources", isDirectory: true), count: files) }
    return bundle
}

let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("device-benchmark-\(UUID().uuidString)", isDirectory: true)
defer { try? FileManager.default.removeItem(at: scratch) }

do {
    let device = try Device.create(at: scratch.appendingPathComponent("device"), name: "bench")
    let small = try makeBundle(at: scratch.appendingPathComponent("small-1"), version: "1", files: 0)
    let app = try device.install(bundleAt: small)

    // Purge vs rm -rf.
    var purgeTimes: [Double] = []
    var rmTimes: [Double] = []
    var freed: UInt64 = 0
    for round in 0..<rounds {
        let caches = try device.containerURL(app.bundleID, .caches)
        let twin = scratch.appendingPathComponent("rm-tree", isDirectory: true)
        log("round \(round + 1): writing 2 × \(fileCount) files")
        try writeTree(at: caches.appendingPathComponent("tree", isDirectory: true), count: fileCount)
        try writeTree(at: twin, count: fileCount)
        try run("/bin/sync", [])
        let purgeFirst = round % 2 == 0
        func purge() throws {
            var report: PurgeReport?
            purgeTimes.append(try seconds { report = try device.purge() })
            freed = report?.bytes ?? 0
            guard report?.files == fileCount else { throw CocoaError(.fileWriteUnknown) }
        }
        func remove() throws { rmTimes.append(try seconds { try run("/bin/rm", ["-rf", twin.path]) }) }
        if purgeFirst { try purge(); try remove() } else { try remove(); try purge() }
        log(String(format: "  purge %.3f s, rm -rf %.3f s", purgeTimes.last ?? 0, rmTimes.last ?? 0))
    }

    // Install and update with 10,000 files.
    try device.uninstall(app.bundleID)
    let bigOne = try makeBundle(at: scratch.appendingPathComponent("big-1"), version: "1", files: appFiles)
    let bigTwo = try makeBundle(at: scratch.appendingPathComponent("big-2"), version: "2", files: appFiles)
    let smallTwo = try makeBundle(at: scratch.appendingPathComponent("small-2"), version: "2", files: 0)
    let smallThree = try makeBundle(at: scratch.appendingPathComponent("small-3"), version: "3", files: 0)
    try run("/bin/sync", [])
    var installed: InstalledApp?
    let installBig = try seconds { installed = try device.install(bundleAt: bigOne) }
    let updateBig = try seconds { installed = try device.update(bundleAt: bigTwo) }
    try device.uninstall("com.example.bench")
    let installSmall = try seconds { installed = try device.install(bundleAt: small) }
    guard let target = installed else { throw CocoaError(.fileReadUnknown) }
    try writeTree(at: target.dataContainerURL.appendingPathComponent("Documents/data", isDirectory: true), count: appFiles)
    try run("/bin/sync", [])
    let updateData = try seconds { installed = try device.update(bundleAt: smallTwo) }
    let moved = try FileManager.default.subpathsOfDirectory(atPath: try device.containerURL("com.example.bench", .documents).path).count
    let updateAgain = try seconds { installed = try device.update(bundleAt: smallThree) }

    let purge = median(purgeTimes)
    let rm = median(rmTimes)
    print("device-benchmark: \(fileCount) cache files, \(rounds) rounds (median), \(appFiles) files per app")
    print("| operation | time |")
    print("|---|---|")
    print(String(format: "| purge, %d cache files (%.1f MB freed) | %.3f s |", fileCount, Double(freed) / 1e6, purge))
    print(String(format: "| `rm -rf` of an identical tree | %.3f s |", rm))
    print(String(format: "| purge / rm -rf | %.2f× |", purge / rm))
    print(String(format: "| install, bundle with %d files (copy + seal) | %.3f s |", appFiles, installBig))
    print(String(format: "| update, bundle with %d files (copy + seal) | %.3f s |", appFiles, updateBig))
    print(String(format: "| install, small bundle | %.4f s |", installSmall))
    print(String(format: "| update, data container with %d files (%d entries moved) | %.4f s |", appFiles, moved, updateData))
    print(String(format: "| update again (same data) | %.4f s |", updateAgain))
    print("all purge rounds: " + purgeTimes.map { String(format: "%.3f", $0) }.joined(separator: ", ")
          + "; rm rounds: " + rmTimes.map { String(format: "%.3f", $0) }.joined(separator: ", "))
} catch {
    log("device-benchmark: \(error)")
    exit(1)
}
