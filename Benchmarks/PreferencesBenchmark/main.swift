import Container
import Foundation
import Preferences
import PropertyList

// prefs-benchmark: this package's Preferences next to Foundation's
// UserDefaults (a suite whose file lives under a temporary HOME), in the
// same run, on a 200-key domain: set + synchronize, and reads.
// Build in release mode: `swift build -c release --product prefs-benchmark`.

let keyCount = 200
let homeVariable = "PREFS_BENCHMARK_HOME"

/// Foundation finds its preferences directory from HOME before `main` runs,
/// so the benchmark runs itself again with HOME (and XDG_CONFIG_HOME) set to
/// a fresh temporary directory; it never touches the user's ~/.config.
func relaunchWithTemporaryHome() throws -> Never {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("prefs-benchmark-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: home) }
    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = home.path
    environment["XDG_CONFIG_HOME"] = home.appendingPathComponent(".config").path
    environment[homeVariable] = home.path
    let child = Process()
    child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    child.arguments = Array(CommandLine.arguments.dropFirst())
    child.environment = environment
    try child.run()
    child.waitUntilExit()
    try? FileManager.default.removeItem(at: home)
    exit(child.terminationStatus)
}

guard let homePath = ProcessInfo.processInfo.environment[homeVariable] else {
    do { try relaunchWithTemporaryHome() } catch {
        FileHandle.standardError.write(Data("prefs-benchmark: \(error)\n".utf8))
        exit(1)
    }
}
let home = URL(fileURLWithPath: homePath, isDirectory: true)

func log(_ message: String) { FileHandle.standardError.write(Data((message + "\n").utf8)) }

/// The median of `rounds` timings of `iterations` calls of `body`, per call, in microseconds.
func microseconds(rounds: Int = 7, iterations: Int, _ body: (Int) throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    var perCall: [Double] = []
    for _ in 0..<rounds {
        let start = clock.now
        for index in 0..<iterations { try body(index) }
        let elapsed = start.duration(to: clock.now)
        let (seconds, attoseconds) = elapsed.components
        perCall.append((Double(seconds) + Double(attoseconds) * 1e-18) / Double(iterations) * 1e6)
    }
    return perCall.sorted()[perCall.count / 2]
}

struct Row {
    var operation: String
    var foundation: Double
    var ours: Double
}

func run() throws {
    let keys = (0..<keyCount).map { "key.\($0)" }
    let writeIterations = 100
    let readIterations = 1_000_000

    // Foundation.
    guard let suite = UserDefaults(suiteName: "com.example.bench") else { throw PreferencesError(.storageFailed, path: "", "no suite") }
    for (index, key) in keys.enumerated() { suite.set(index, forKey: key) }
    suite.synchronize()
    var sink = 0
    let foundationRead = microseconds(iterations: readIterations) { index in
        if suite.integer(forKey: keys[index % keyCount]) != 0 { sink &+= 1 }
    }
    let foundationBool = microseconds(iterations: readIterations) { index in
        if suite.bool(forKey: keys[index % keyCount]) { sink &+= 1 }
    }

    // Ours.
    // The app's normal path: its domain in its container, through the
    // container's file API.
    let container = try AppContainer.create(at: home.appendingPathComponent("container"))
    let file = container.url(for: .preferences).appendingPathComponent("com.example.bench.plist")
    let prefs = try Preferences(container: container, bundleIdentifier: "com.example.bench",
                                configuration: .init(coalescingDelay: nil))
    for (index, key) in keys.enumerated() { prefs.set(index, forKey: key) }
    try prefs.synchronize()
    // Writes are measured in alternating rounds, Foundation then ours, so
    // that load from other work on the machine hits both alike.
    let before = prefs.statistics
    let containerBefore = container.bytesWritten
    var foundationRounds: [Double] = []
    var oursRounds: [Double] = []
    // Every set stores a value the key has never had, so every
    // synchronize has something to write (Foundation skips unchanged values).
    for round in 1...9 {
        foundationRounds.append(microseconds(rounds: 1, iterations: writeIterations) { index in
            suite.set(round * 1_000 + index, forKey: keys[index % keyCount])
            suite.synchronize()
        })
        oursRounds.append(try microseconds(rounds: 1, iterations: writeIterations) { index in
            prefs.set(round * 1_000 + index, forKey: keys[index % keyCount])
            try prefs.synchronize()
        })
    }
    let foundationSet = foundationRounds.sorted()[foundationRounds.count / 2]
    let oursSet = oursRounds.sorted()[oursRounds.count / 2]
    let after = prefs.statistics
    let containerWritten = container.bytesWritten - containerBefore
    let fileSize = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
    let oursDurable = try microseconds(rounds: 3, iterations: 100) { index in
        prefs.set(100_000 + index, forKey: keys[index % keyCount])
        try prefs.applicationDidEnterBackground()
    }
    let oursRead = microseconds(iterations: readIterations) { index in
        if prefs.integer(forKey: keys[index % keyCount]) != 0 { sink &+= 1 }
    }
    let oursBool = microseconds(iterations: readIterations) { index in
        if prefs.bool(forKey: keys[index % keyCount]) { sink &+= 1 }
    }
    let oursBurst = try microseconds(rounds: 5, iterations: 20) { round in
        for key in keys { prefs.set(round, forKey: key) }
        try prefs.synchronize()
    }

    let writes = after.fileWrites - before.fileWrites
    let bytesPerFlush = writes > 0 ? Double(after.bytesWritten - before.bytesWritten) / Double(writes) : 0
    let foundationFile = home.appendingPathComponent(".config/com.example.bench.plist")
    let foundationSize = (try? FileManager.default.attributesOfItem(atPath: foundationFile.path)[.size] as? Int) ?? 0

    let rows = [
        Row(operation: "set + synchronize (200-key domain)", foundation: foundationSet, ours: oursSet),
        Row(operation: "read integer(forKey:)", foundation: foundationRead, ours: oursRead),
        Row(operation: "read bool(forKey:) (integer value, coerced)", foundation: foundationBool, ours: oursBool),
    ]
    print("| operation | Foundation UserDefaults | Preferences | speed-up |")
    print("|---|---:|---:|---:|")
    for row in rows {
        print("| \(row.operation) | \(format(row.foundation)) µs | \(format(row.ours)) µs | \(String(format: "%.1f", row.foundation / row.ours))× |")
    }
    print("")
    print("| Preferences only | figure |")
    print("|---|---:|")
    print("| set + `applicationDidEnterBackground()` (fsync file and directory) | \(format(oursDurable)) µs |")
    print("| 200 sets + one synchronize (a burst: one write) | \(format(oursBurst)) µs |")
    print("| bytes written per flush | \(Int(bytesPerFlush)) B |")
    print("| bytes the container counted per flush | \(writes > 0 ? Int(containerWritten) / writes : 0) B |")
    print("| binary file size after those flushes | \(fileSize) B |")
    print("| Foundation's XML file size | \(foundationSize) B |")
    if sink == 42 { log("") }
}

func format(_ value: Double) -> String {
    value >= 100 ? String(format: "%.0f", value) : value >= 1 ? String(format: "%.2f", value) : String(format: "%.3f", value)
}

do {
    try run()
} catch {
    log("prefs-benchmark: \(error)")
    exit(1)
}
