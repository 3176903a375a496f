import Foundation
import Launch

// launch-benchmark: the cost of a confined launch next to a plain one, in
// the same run: start + wait of `/bin/true`, N times each, by posix_spawn +
// waitpid (plain exec), by Foundation's Process, by ConfinedLaunch with confinement off (the
// trampoline's own cost) and by ConfinedLaunch confined (plus the ruleset).
// Build in release mode: `swift build -c release --product launch-benchmark`
// (it finds `sandbox-confine` beside itself).
//
//   launch-benchmark [count]     (default 200)

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 200 : 200
let program = URL(fileURLWithPath: "/bin/true")

/// Runs `body` `count` times; returns the per-run times in milliseconds, sorted.
func measure(_ body: () throws -> Void) rethrows -> [Double] {
    var times: [Double] = []
    for _ in 0..<count {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    return times.sorted()
}

func line(_ name: String, _ times: [Double], against base: [Double]? = nil) -> String {
    let median = times[times.count / 2], p90 = times[times.count * 9 / 10]
    let ratio = base.map { String(format: "  %.2f× plain", median / $0[$0.count / 2]) } ?? ""
    return String(format: "%-34@ median %7.2f ms  p90 %7.2f ms", name as NSString, median, p90) + ratio
}

func confined(_ mode: ConfinementMode) throws {
    var launch = ConfinedLaunch(executable: program)
    launch.mode = mode
    launch.printsWarnings = false
    let status = try launch.start().wait()
    guard status.succeeded else { throw LaunchError(.execFailed, "/bin/true ended with \(status)") }
}

do {
    print("launch-benchmark: \(count) runs of /bin/true each; Landlock ABI \(Landlock.abiVersion)")
    let plain = try measure {
        guard Platform.spawnAndWait(program.path) else { throw LaunchError(.spawnFailed, "posix_spawn failed") }
    }
    let foundation = try measure {
        let process = Process()
        process.executableURL = program
        try process.run()
        process.waitUntilExit()
    }
    let trampoline = try measure { try confined(.disabled) }
    let landlock = Landlock.isAvailable ? try measure { try confined(.required) } : nil
    print(line("posix_spawn + waitpid (plain exec)", plain))
    print(line("Foundation Process", foundation, against: plain))
    print(line("ConfinedLaunch, confinement off", trampoline, against: plain))
    if let landlock { print(line("ConfinedLaunch, confined", landlock, against: plain)) }
} catch {
    FileHandle.standardError.write(Data("launch-benchmark: \(error)\n".utf8))
    exit(1)
}
