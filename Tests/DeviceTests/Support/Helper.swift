import Foundation
import TestSupport
import Testing

/// An executable of this build (a test helper), found next to the tests.
enum Helper {
    static func locate(_ name: String) -> URL? { BuiltExecutable.locate(name) }

    /// Starts `name` with `arguments`; its standard output goes to `output`
    /// (discarded when nil).
    static func start(_ name: String, _ arguments: [String], output: Pipe? = nil) throws -> Process {
        try ChildProcess.start(#require(locate(name), "\(name) was not built"), arguments, output: output)
    }
}
