import ArgumentParser
import Foundation

/// Runs the body of a `sandbox defaults` command and turns its failures
/// into the command's exit status, as `defaults` does.
enum DefaultsRunner {
    /// Runs `body` as ``CommandRunner/run(errorPrefix:_:)`` does (a usage
    /// error gives status 64, a full disk 74, any other error status 1),
    /// printing a failure without the `Error: ` prefix, as `defaults`
    /// prints it.
    static func run(_ body: () throws -> Void) throws {
        try CommandRunner.run(errorPrefix: "", body)
    }
}
