import Container
import Foundation

// container-benchmark: the container's confined open, stat and atomic write
// next to plain Foundation (FileManager, FileHandle, Data.write(.atomic))
// and plain libc open/stat, in one run, on the same files.
// Build in release mode: `swift build -c release --product container-benchmark`.
// Usage: container-benchmark [rounds] [directory]   (directory: where the
// temporary container goes; default the system's temporary directory)
//        container-benchmark migrate [files] [rounds] [directory]
//        (the Documents migration against FileManager.moveItem per file)

let arguments = CommandLine.arguments.dropFirst()
let rounds = arguments.first.flatMap(Int.init) ?? 9
let parent = arguments.dropFirst().first.map { URL(fileURLWithPath: $0, isDirectory: true) }
    ?? FileManager.default.temporaryDirectory

func log(_ message: String) { FileHandle.standardError.write(Data((message + "\n").utf8)) }

struct Row {
    var operation: String
    var ours: Double
    var foundation: Double
    var libc: Double?
}

func run() throws {
    let root = parent.appendingPathComponent("container-benchmark-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: root) }
    let container = try AppContainer.create(at: root, bundleName: "Bench")
    // A file three levels down, as app data usually is.
    let relative = "Library/Application Support/store/data.bin"
    try container.createDirectory("Library/Application Support/store")
    let payload = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0) })
    try container.writeAtomically(payload, to: relative)
    let absolute = container.url(forRelativePath: relative).path
    let absoluteURL = URL(fileURLWithPath: absolute)
    var failures = 0

    let metadataIterations = 20_000
    let open = try Timing.interleaved(rounds: rounds, iterations: metadataIterations, [
        { _ in try container.openFile(relative).close() },
        { _ in
            guard let handle = FileHandle(forReadingAtPath: absolute) else { failures += 1; return }
            try handle.close()
        },
        { _ in if !Plain.openAndClose(absolute) { failures += 1 } },
    ])
    let stat = try Timing.interleaved(rounds: rounds, iterations: metadataIterations, [
        { _ in if try container.attributes(relative).size != 4096 { failures += 1 } },
        { _ in if (try FileManager.default.attributesOfItem(atPath: absolute)[.size] as? Int) != 4096 { failures += 1 } },
        { _ in if Plain.size(absolute) != 4096 { failures += 1 } },
    ])
    let exists = try Timing.interleaved(rounds: rounds, iterations: metadataIterations, [
        { _ in if !container.fileExists(relative) { failures += 1 } },
        { _ in if !FileManager.default.fileExists(atPath: absolute) { failures += 1 } },
    ])
    // Writes: 4 KiB replaced atomically, one call of each in turn, median call.
    let write = try Timing.alternating(calls: rounds * 40, [
        { _ in try container.writeAtomically(payload, to: relative) },
        { _ in try payload.write(to: absoluteURL, options: .atomic) },
        { _ in try container.writeAtomically(payload, to: relative, durability: .processCrashSafe) },
    ])
    let read = try Timing.interleaved(rounds: rounds, iterations: metadataIterations, [
        { _ in if try container.read(relative).count != 4096 { failures += 1 } },
        { _ in if try Data(contentsOf: absoluteURL).count != 4096 { failures += 1 } },
    ])
    guard failures == 0 else { throw ContainerError(.io(errno: 0), path: relative, "\(failures) calls failed") }

    let rows = [
        Row(operation: "open + close (3 levels deep)", ours: open[0], foundation: open[1], libc: open[2]),
        Row(operation: "stat (`attributes` / `attributesOfItem` / `lstat`)", ours: stat[0], foundation: stat[1], libc: stat[2]),
        Row(operation: "file exists", ours: exists[0], foundation: exists[1], libc: nil),
        Row(operation: "read 4 KiB file", ours: read[0], foundation: read[1], libc: nil),
        Row(operation: "atomic write 4 KiB (ours: fsync file + rename + fsync dir)", ours: write[0], foundation: write[1], libc: nil),
    ]
    print("| operation | ours (confined) | Foundation | plain libc | ours / Foundation | ours / libc |")
    print("|---|---:|---:|---:|---:|---:|")
    for row in rows {
        let libc = row.libc.map { Timing.format($0) + " µs" } ?? "–"
        let ratio = row.libc.map { String(format: "%.2f×", row.ours / $0) } ?? "–"
        print("| \(row.operation) | \(Timing.format(row.ours)) µs | \(Timing.format(row.foundation)) µs | \(libc) "
            + "| \(String(format: "%.2f×", row.ours / row.foundation)) | \(ratio) |")
    }
    print("")
    print("| ours only | figure |")
    print("|---|---:|")
    print("| atomic write 4 KiB, `.processCrashSafe` (rename, no fsync) | \(Timing.format(write[2])) µs |")
    print("| bytes written through the container in this run | \(container.bytesWritten) B |")
    print("")
    print("Median of \(rounds) interleaved rounds (writes: median of \(rounds * 40) calls of each, alternating); "
        + "load average (1 min) at the end: \(String(format: "%.2f", Plain.loadAverage())).")
}

do {
    if arguments.first == "migrate" {
        let rest = arguments.dropFirst()
        try MigrationBenchmark.run(files: rest.first.flatMap(Int.init) ?? 10_000,
                                   rounds: rest.dropFirst().first.flatMap(Int.init) ?? 5,
                                   parent: rest.dropFirst(2).first.map { URL(fileURLWithPath: $0, isDirectory: true) }
                                       ?? FileManager.default.temporaryDirectory)
    } else {
        try run()
    }
} catch {
    log("container-benchmark: \(error)")
    exit(1)
}
