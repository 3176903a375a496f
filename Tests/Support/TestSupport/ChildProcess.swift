import Foundation

/// Another program a test runs: this build's helpers (see
/// ``BuiltExecutable``), `python3` for the oracles, system tools.
public enum ChildProcess {
    /// What a program did, run to its end.
    public struct Result: Sendable {
        /// The exit status (or the signal that ended it).
        public var status: Int32
        public var standardOutput: Data
        public var standardError: String

        /// Standard output as UTF-8 text.
        public var output: String { String(decoding: standardOutput, as: UTF8.self) }
        /// Standard error split into lines, without the empty last one.
        public var errorLines: [String] { standardError.split(separator: "\n").map(String.init) }
    }

    /// Starts `executable` with `arguments` and returns at once; its
    /// standard output goes to `output` (discarded when nil), its standard
    /// error is the test's.
    public static func start(_ executable: URL, _ arguments: [String], output: Pipe? = nil) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = output ?? FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs `executable` with `arguments` to its end in `directory` (the
    /// test's when nil), feeding it `input`, with `environment` added to
    /// the test's own, and returns what it did.
    public static func run(
        _ executable: URL, _ arguments: [String], input: Data = Data(), in directory: URL? = nil,
        environment: [String: String]? = nil
    ) throws -> Result {
        // Files, not pipes, so a large output can never fill a pipe and stall the child.
        let scratch = try TemporaryDirectory("process")
        let inputURL = try scratch.write(input, to: "stdin")
        let outputURL = try scratch.write(Data(), to: "stdout")
        let errorURL = try scratch.write(Data(), to: "stderr")

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardInput = try FileHandle(forReadingFrom: inputURL)
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            standardOutput: try Data(contentsOf: outputURL),
            standardError: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self))
    }

    /// Runs `python3` (found on `PATH`) with `arguments` to its end.
    public static func python(_ arguments: [String]) throws -> Result {
        try run(URL(fileURLWithPath: "/usr/bin/env"), ["python3"] + arguments)
    }
}
