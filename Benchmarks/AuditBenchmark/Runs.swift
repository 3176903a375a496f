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

    /// One untimed run (warm page cache, loaded binary), then `repetitions` timed ones.
    func measure(_ name: String, _ arguments: [String], repetitions: Int, insideSeconds: Bool = false) throws -> Runs {
        var runs = Runs(name: name)
        _ = try run(arguments, insideSeconds: insideSeconds)
        for _ in 0..<repetitions {
            let result = try run(arguments, insideSeconds: insideSeconds)
            runs.seconds.append(result.seconds)
            runs.peakKilobytes.append(result.peakKilobytes)
            runs.output = result.output
        }
        return runs
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
}
