import Foundation
import TestSupport
import Testing

/// The `prefs-stress-writer` executable of this build: the other process
/// of the multi-process tests.
enum StressWriter {
    static let executable = BuiltExecutable.locate("prefs-stress-writer")

    /// Starts the writer with `arguments`; standard output goes to `output`
    /// if given, else is discarded.
    static func start(_ arguments: [String], output: Pipe? = nil) throws -> Process {
        try ChildProcess.start(#require(executable, "prefs-stress-writer was not built"), arguments, output: output)
    }

    /// Runs the writer to the end and returns its exit status.
    static func run(_ arguments: [String]) throws -> Int32 {
        let process = try start(arguments)
        return process.waitForExit().status
    }
}
