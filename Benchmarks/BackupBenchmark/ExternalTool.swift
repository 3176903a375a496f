import Foundation

/// restic or borg, driven through their command lines on the same tree.
struct ExternalTool {
    let name: String
    let executable: String
    let environment: [String: String]

    /// The tool's path, or nil when it is not installed (the benchmark then skips it).
    static func find(_ name: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Runs the tool with `arguments` in `directory`; throws with its output on failure.
    func run(_ arguments: [String], in directory: URL? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = directory }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("backup-benchmark-\(name).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        guard process.terminationStatus == 0 else {
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw BenchmarkFailure("\(name) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(output.suffix(2000))")
        }
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
