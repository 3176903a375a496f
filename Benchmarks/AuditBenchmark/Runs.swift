import FileSystem
import Foundation

/// One competitor's repetitions: wall seconds and peak resident memory.
struct Runs {
    var name: String
    var seconds: [Double] = []
    var peakKilobytes: [Int] = []
    /// What the run printed last (a total, to check they agree).
    var output = ""

    var median: Double { seconds.sorted()[seconds.count / 2] }
    var best: Double { seconds.min() ?? 0 }
    var peakMegabytes: Double { Double(peakKilobytes.max() ?? 0) / 1024 }
}

/// Runs programs under GNU time (`/usr/bin/time -f %M`, the child's
/// `ru_maxrss`), timing them from here.
struct ProgramTimer {
    var scratch: URL

    /// Runs `arguments` once; `insideSeconds` takes the time the program
    /// reports itself (the library run, which leaves out its start).
    func run(_ arguments: [String], insideSeconds: Bool = false) throws -> (seconds: Double, peakKilobytes: Int, output: String) {
        let timeFile = scratch.appendingPathComponent("time.out").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M", "-o", timeFile] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        let start = DispatchTime.now().uptimeNanoseconds
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard process.terminationStatus == 0 else {
            throw BenchmarkFailure(description: "\(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
        let timeText = String(decoding: try FileSystemPaths.readFile(atPath: timeFile) ?? Data(), as: UTF8.self)
        let peak = Int(timeText.split(separator: "\n").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "") ?? 0
        let output = String(decoding: data, as: UTF8.self)
        let lastLine = output.split(separator: "\n").last.map(String.init) ?? ""
        if insideSeconds, let reported = Double(lastLine.split(separator: " ").first ?? "") {
            return (reported, peak, lastLine)
        }
        return (wall, peak, String(lastLine.prefix(120)))
    }

    /// Each competitor once untimed (warm page cache, loaded binary), then
    /// `repetitions` rounds that run each once in turn, so that every round
    /// meets the machine's load of its moment alike (the machine is shared:
    /// all of one competitor's runs, then all of the next's, would compare
    /// different minutes). The load average is noted after each round.
    func measure(_ competitors: [Competitor], repetitions: Int) throws -> (runs: [Runs], loads: [String]) {
        var rows = competitors.map { Runs(name: $0.name) }
        for competitor in competitors { _ = try run(competitor.arguments, insideSeconds: competitor.insideSeconds) }
        var loads: [String] = []
        for _ in 0..<repetitions {
            for (index, competitor) in competitors.enumerated() {
                let result = try run(competitor.arguments, insideSeconds: competitor.insideSeconds)
                rows[index].seconds.append(result.seconds)
                rows[index].peakKilobytes.append(result.peakKilobytes)
                rows[index].output = result.output
            }
            loads.append(Self.loadAverage())
        }
        return (rows, loads)
    }

    /// The load average of the last minute (`getloadavg`), or "?".
    static func loadAverage() -> String {
        var loads = [Double](repeating: 0, count: 3)
        return getloadavg(&loads, 3) >= 1 ? String(format: "%.1f", loads[0]) : "?"
    }
}

/// A program to time: its row's name, its command line, and whether it
/// reports its own seconds (the library runs, which leave out their start).
struct Competitor {
    var name: String
    var arguments: [String]
    var insideSeconds = false
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
}
