import Foundation
import TestSupport
import Testing

/// Runs the built `sandbox` executable and captures what it did.
///
/// `swift test` builds the executable because the test target depends on it;
/// it sits next to the test bundle in the build directory.
struct SandboxProcess {
    /// The outcome of one run.
    struct Result {
        var status: Int32
        var standardOutput: Data
        var standardError: String

        /// Standard output as UTF-8 text.
        var output: String { String(decoding: standardOutput, as: UTF8.self) }
        /// Standard error split into lines, without the empty last one.
        var errorLines: [String] { standardError.split(separator: "\n").map(String.init) }
    }

    /// The package root.
    static let packageRoot = BuiltExecutable.packageRoot

    /// The shared fixture corpus, outside the repository.
    static let fixtures: URL = packageRoot.appendingPathComponent("../shared/fixtures/plist").standardizedFileURL

    /// The `sandbox` executable of this build.
    static let executable = BuiltExecutable.locate("sandbox")

    /// Runs `sandbox plist arguments…` (or, with `subcommand` nil, `sandbox
    /// arguments…`) in `directory`, feeding it `input` on standard input.
    static func run(
        _ arguments: [String], input: Data = Data(), in directory: URL, subcommand: String? = "plist",
        environment: [String: String]? = nil
    ) throws -> Result {
        let executable = try #require(executable, "the sandbox executable was not built")
        // Files, not pipes, so a large output can never fill a pipe and stall the child.
        let scratch = try TemporaryDirectory()
        let inputURL = scratch.url.appendingPathComponent("stdin")
        let outputURL = scratch.url.appendingPathComponent("stdout")
        let errorURL = scratch.url.appendingPathComponent("stderr")
        try input.write(to: inputURL)
        try Data().write(to: outputURL)
        try Data().write(to: errorURL)

        let process = Process()
        process.executableURL = executable
        process.arguments = (subcommand.map { [$0] } ?? []) + arguments
        process.currentDirectoryURL = directory
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
}
