import ArgumentParser
import Foundation

/// Runs the body of a `sandbox defaults` command and turns its failures
/// into the command's exit status, as `defaults` does.
enum DefaultsRunner {
    /// Runs `body`. A usage error is rethrown for ArgumentParser (status
    /// 64); any other error is printed on standard error and gives status 1.
    static func run(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as ValidationError {
            throw error
        } catch {
            FileOutput.writeToStandardError("\(error)\n")
            throw ExitCode.failure
        }
    }
}
