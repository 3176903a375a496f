import FileSystem
import Foundation
import SystemPackage

// filesystem-benchmark: issue 13's FileSystem targets, timed in one process
// on one directory, competitors interleaved call by call so that the disk's
// moods (other writers' flushes) fall on all of them alike:
//
//  (a) the atomic replace at `.fileOnly` (by path, and through a held
//      directory) against Foundation's `Data.write(options: .atomic)`, which
//      makes the same one-flush promise, for 4 KiB and 1 MiB;
//  (b) `.full` against three two-flush system-call sequences of
//      Scripts/atomic_sequences.c, replayed here with bare libc calls: the
//      plain one (open, write, fsync, rename, fsync(dir)) and the best one
//      (O_TMPFILE, link, exchange, fsync(dir), the old file's unlink off
//      the clock); target: ours ≤ 1.1× the best. That sequence links its
//      file after flushing it, so on ext4 without a journal (this machine's
//      disk) the link count reaches the disk only by writeback: a power
//      loss before it leaves the name on an inode with no links. The
//      ratios are also given against the best sequence that is safe there,
//      a named temporary file exchanged with the target (sequence 2). Ours
//      release the old file on a background queue, which is waited for off
//      the clock, as the C sequences' unlink is done off the clock;
//  (c) a confined open and stat beneath a held directory against the same
//      calls by absolute path (one `open`, one `lstat`) and Foundation's
//      `attributesOfItem` (container-benchmark, run by the same script,
//      has the bare libc figures).
//
// Build in release mode: `swift build -c release --product filesystem-benchmark`;
// Benchmarks/Scripts/filesystem_bench.sh runs it with the C program.
// Usage: filesystem-benchmark [calls] [directory]   (calls per competitor per
// size, default 200; directory: where the scratch directory goes, default the
// current one, which should be on the disk under test)

let arguments = CommandLine.arguments.dropFirst()
let calls = arguments.first.flatMap(Int.init) ?? 200
let parent = arguments.dropFirst().first ?? FileManager.default.currentDirectoryPath

struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
}

/// One table row: a competitor's median and best call.
func row(_ name: String, _ samples: Samples, _ index: Int, against base: Int?) -> String {
    let versus = base.map { "\(ratio(samples.median(index), samples.median($0))) | \(ratio(samples.best(index), samples.best($0)))" } ?? "– | –"
    return "| \(name) | \(format(samples.median(index))) µs | \(format(samples.best(index))) µs | \(versus) |"
}

/// Work a competitor leaves for after its clock stops (the best C
/// sequence's unlink of the old file), done before the next competitor runs.
/// (One thread runs the whole benchmark.)
nonisolated(unsafe) var untimed: [() -> Void] = []

/// Writes of `size` bytes, each competitor once per call in turn, the
/// order rotated from one call to the next, timed by the wall clock or,
/// with `threadCPU`, by the calling thread's CPU clock.
func atomicWrites(size: Int, calls: Int, threadCPU: Bool = false,
                  _ competitors: [(String, (Data, [UInt8]) throws -> Bool)]) throws -> Samples {
    let data = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    let bytes = [UInt8](data)
    let clock = ContinuousClock()
    var samples = Samples(competitors: competitors.count)
    // A first call each outside the clock: the file exists and is warm for all.
    for (_, body) in competitors { _ = try body(data, bytes) }
    for work in untimed { work() }
    untimed.removeAll()
    for call in 0..<calls {
        // Each round starts with the next competitor, so none always follows
        // the same one (whose leftover disk work it would always inherit).
        for turn in competitors.indices {
            let index = (call + turn) % competitors.count
            let (name, body) = competitors[index]
            var ok = true
            let call = { ok = try body(data, bytes) }
            samples.add(try threadCPU ? threadCPUTime(call) : time(clock, call), to: index)
            for work in untimed { work() }
            untimed.removeAll()
            if !ok { throw BenchmarkFailure(description: "\(name) failed") }
        }
    }
    return samples
}

/// The profiling mode's table: `competitors` at 4 KiB, each call timed by
/// the calling thread's CPU clock.
func threadTimes(_ competitors: [(String, (Data, [UInt8]) throws -> Bool)], calls: Int) throws {
    let samples = try atomicWrites(size: 4096, calls: calls, threadCPU: true, competitors)
    print("| competitor (4 KiB, thread CPU per call) | median | mean | 10th percentile |")
    print("|---|---:|---:|---:|")
    for index in competitors.indices {
        print("| \(competitors[index].0) | \(format(samples.median(index))) µs | \(format(samples.mean(index))) µs "
              + "| \(format(samples.tenthPercentile(index))) µs |")
    }
}

func run() throws {
    let scratch = parent + "/filesystem-benchmark-\(UUID().uuidString)"
    try FileSystemPaths.makeDirectories(atPath: scratch)
    defer { _ = try? FileSystemPaths.removeTree(atPath: scratch) }
    let held = try DirectoryHandle(openingAt: scratch)
    let target = "data.bin"
    let targetPath = scratch + "/" + target
    let targetURL = URL(fileURLWithPath: targetPath)
    let loadBefore = Plain.loadAverage()

    let fileOnly = AtomicWriteOptions(durability: .fileOnly)
    let full = AtomicWriteOptions(durability: .full)
    let oneFlush: [(String, (Data, [UInt8]) throws -> Bool)] = [
        ("FileSystemPaths.writeAtomically .fileOnly", { data, _ in
            try FileSystemPaths.writeAtomically(data, toPath: targetPath, options: fileOnly); return true }),
        ("held directory replaceAtomically .fileOnly", { data, _ in
            try held.descriptor.replaceAtomically(target, options: fileOnly) { file throws(FileSystemError) in try file.writeFully(data) }
            return true }),
        ("Foundation Data.write(.atomic)", { data, _ in try data.write(to: targetURL, options: .atomic); return true }),
        ("libc: open, write, fsync, rename (1 flush)", { _, bytes in Plain.replace(held.descriptor.rawValue, target, bytes, flushDirectory: false) }),
    ]
    // The best C sequence leaves the old file's unlink (which frees its
    // blocks) off the clock and finishes it before the next competitor
    // starts; ours leaves the same work to a background queue
    // (`ReplacedFiles`), waited for here off the clock too, so that no
    // competitor's timed call shares the disk with another's leftover work.
    let twoFlushes: [(String, (Data, [UInt8]) throws -> Bool)] = [
        ("FileSystemPaths.writeAtomically .full", { data, _ in
            untimed.append { ReplacedFiles.waitForReleases() }
            try FileSystemPaths.writeAtomically(data, toPath: targetPath, options: full); return true }),
        ("held directory replaceAtomically .full", { data, _ in
            untimed.append { ReplacedFiles.waitForReleases() }
            try held.descriptor.replaceAtomically(target, options: full) { file throws(FileSystemError) in try file.writeFully(data) }
            return true }),
        ("libc: open, write, fsync, rename, fsync(dir) (2 flushes)", { _, bytes in
            Plain.replace(held.descriptor.rawValue, target, bytes, flushDirectory: true) }),
        ("libc best: O_TMPFILE, link, exchange, fsync(dir); old file's unlink off the clock", { _, bytes in
            untimed.append { Plain.removeExchanged(held.descriptor.rawValue) }
            return Plain.replaceExchanging(held.descriptor.rawValue, target, bytes) }),
        ("libc best safe without a journal: open, write, fsync, exchange, fsync(dir); unlink off the clock", { _, bytes in
            untimed.append { Plain.removeExchanged(held.descriptor.rawValue) }
            return Plain.replaceExchangingNamed(held.descriptor.rawValue, target, bytes) }),
    ]
    // Profiling mode: FSB_CPU=1,4 (indices into `twoFlushes`) times only
    // those competitors at 4 KiB, interleaved, by the calling thread's CPU
    // clock, so that a difference in process cost can be told from the
    // disk's moods (work ours leaves to `ReplacedFiles` runs on another
    // thread and is not counted, as the C sequences' unlink off the clock).
    if let picked = ProcessInfo.processInfo.environment["FSB_CPU"] {
        let picks = picked.split(separator: ",").compactMap { Int($0) }.filter(twoFlushes.indices.contains)
        // The exchanging sequences need a target to exchange with.
        try held.descriptor.writeAtomically(Data(count: 4096), to: target)
        try threadTimes(picks.map { twoFlushes[$0] }, calls: calls)
        return
    }
    for (label, size, count) in [("4 KiB", 4096, calls), ("1 MiB", 1 << 20, max(calls / 4, 20))] {
        let a = try atomicWrites(size: size, calls: count, oneFlush)
        print("### (a) atomic write, \(label), `.fileOnly` against Foundation (\(count) calls each, interleaved)\n")
        print("| competitor | median | best | median / Foundation | best / Foundation |")
        print("|---|---:|---:|---:|---:|")
        for index in oneFlush.indices { print(row(oneFlush[index].0, a, index, against: index == 2 ? nil : 2)) }
        print("")
        let b = try atomicWrites(size: size, calls: count, twoFlushes)
        print("### (b) atomic write, \(label), `.full` against the two-flush libc sequences (\(count) calls each, interleaved)\n")
        print("| competitor | median | best | median / libc best | best / libc best | median / best safe | best / best safe |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for index in twoFlushes.indices {
            let safe = index == 4 ? " – | – |" : " \(ratio(b.median(index), b.median(4))) | \(ratio(b.best(index), b.best(4))) |"
            print(row(twoFlushes[index].0, b, index, against: index == 3 ? nil : 3) + safe)
        }
        print("")
    }

    // (c) Confined lookups three levels down, as app data usually is.
    let relative = "Library/Application Support/store/data.bin"
    try FileSystemPaths.makeDirectories(atPath: scratch + "/Library/Application Support/store")
    try held.descriptor.writeAtomically(Data(count: 4096), to: relative, options: AtomicWriteOptions(durability: .none))
    let absolute = scratch + "/" + relative
    let iterations = 20_000
    let rounds = 9
    let clock = ContinuousClock()
    var failures = 0
    let lookups: [(String, () throws -> Void)] = [
        ("confined open + close (`DirectoryHandle.open` beneath)", { try held.open(relative, .readOnly).closeQuietly() }),
        ("open + close by path (`FileDescriptor.open(atPath:)`)", { try FileDescriptor.open(atPath: absolute, .readOnly).closeQuietly() }),
        ("confined stat (open `O_PATH` beneath, `status()`, close)", {
            let fd = try held.open(relative, .readOnly, options: [.pathOnly, .noFollow], followFinal: false)
            defer { fd.closeQuietly() }
            if try fd.status().size != 4096 { failures += 1 }
        }),
        ("lstat by path (`FileSystemPaths.status(atPath:)`)", {
            if try FileSystemPaths.status(atPath: absolute)?.size != 4096 { failures += 1 }
        }),
        ("Foundation attributesOfItem", {
            if (try FileManager.default.attributesOfItem(atPath: absolute)[.size] as? Int) != 4096 { failures += 1 }
        }),
    ]
    var lookupSamples = Samples(competitors: lookups.count)
    for _ in 0..<rounds {
        for (index, (_, body)) in lookups.enumerated() {
            let elapsed = try time(clock) { for _ in 0..<iterations { try body() } }
            lookupSamples.add(elapsed / Double(iterations), to: index)
        }
    }
    guard failures == 0 else { throw BenchmarkFailure(description: "\(failures) lookups failed") }
    print("### (c) confined open and stat, 3 levels deep (\(rounds) interleaved rounds of \(iterations) calls; per call)\n")
    print("| competitor | median round | best round | median / plain | best / plain |")
    print("|---|---:|---:|---:|---:|")
    print(row(lookups[0].0, lookupSamples, 0, against: 1))
    print(row(lookups[1].0, lookupSamples, 1, against: nil))
    print(row(lookups[2].0, lookupSamples, 2, against: 3))
    print(row(lookups[3].0, lookupSamples, 3, against: nil))
    print(row(lookups[4].0, lookupSamples, 4, against: 3))
    print("")
    print("openat2: \(FileDescriptor.hasOpenat2 ? "yes" : "no (component walk)"); "
        + "load average (1 min): \(String(format: "%.2f", loadBefore)) at the start, "
        + "\(String(format: "%.2f", Plain.loadAverage())) at the end; directory \(scratch).")
}

do {
    try run()
} catch {
    FileHandle.standardError.write(Data("filesystem-benchmark: \(error)\n".utf8))
    exit(1)
}
