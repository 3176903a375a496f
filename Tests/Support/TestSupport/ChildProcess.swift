import Foundation
import LaunchCore
#if canImport(Glibc)
import Glibc
#endif

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
    public static func start(_ executable: URL, _ arguments: [String], output: Pipe? = nil, errorOutput: FileHandle? = nil) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = output ?? FileHandle.nullDevice
        if let errorOutput { process.standardError = errorOutput }
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
        // posix_spawn and waitpid on the child's own pid, not Foundation's
        // Process: under a full parallel test run, Process.waitUntilExit
        // once never returned for a child that had exited (`id -u`, left a
        // zombie), and the whole run hung.
        var program = executable.path
        var argv = [executable.path] + arguments
        if let directory {
            // posix_spawn has no portable change of directory: coreutils'
            // env makes it, then execs the program.
            program = "/usr/bin/env"
            argv = ["/usr/bin/env", "-C", directory.path, executable.path] + arguments
        }
        let merged = ProcessInfo.processInfo.environment.merging(environment ?? [:]) { $1 }
        let streams = try [inputURL, outputURL, errorURL].enumerated().map { index, url in
            let fd = open(url.path, index == 0 ? O_RDONLY | O_CLOEXEC : O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw ChildProcessFailure("cannot open \(url.path): errno \(errno)") }
            return fd
        }
        defer { streams.forEach { _ = close($0) } }
        let pid: Int32
        do {
            pid = try ProcessControl.spawn(program, arguments: argv, environment: merged.map { "\($0.key)=\($0.value)" },
                                           descriptors: [(0, streams[0]), (1, streams[1]), (2, streams[2])])
        } catch {
            throw ChildProcessFailure("cannot start \(program): errno \(error.errno)")
        }
        let raw: Int32?
        do { raw = try ProcessControl.wait(pid, block: true) } catch {
            throw ChildProcessFailure("cannot wait for \(program) (pid \(pid)): errno \(error.errno)")
        }
        let decoded = ProcessControl.decodeWaitStatus(raw ?? 0)
        return Result(
            status: decoded.exitCode ?? decoded.signal ?? 0,
            standardOutput: try Data(contentsOf: outputURL),
            standardError: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self))
    }

    /// Runs `python3` (found on `PATH`) with `arguments` to its end.
    public static func python(_ arguments: [String]) throws -> Result {
        try run(URL(fileURLWithPath: "/usr/bin/env"), ["python3"] + arguments)
    }
}

/// A child process that could not be started or waited for.
public struct ChildProcessFailure: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
