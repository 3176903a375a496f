import ArgumentParser
import CodedErrors
import Foundation
import TerminalText

/// Runs the body of a command (`sandbox keychain …`, `sandbox device …`,
/// `sandbox backup …`) and turns its failures into the command's exit status.
enum CommandRunner {
    /// The status of a command that failed because a disk was full, at
    /// whatever depth (`isDiskFull`: `ENOSPC`, `EDQUOT`, `SQLITE_FULL`):
    /// sysexits' `EX_IOERR`, so a script can tell it from other failures (1).
    static let diskFullStatus: Int32 = 74

    /// Runs `body`. A usage error is rethrown for ArgumentParser to report
    /// (status 64), an `ExitCode` the body threw passes through; any other
    /// error is printed on standard error after `errorPrefix` (`Error: …`),
    /// once with the causes it keeps, on one line with its controls made
    /// visible (it may name a file an app chose: ``TerminalText``), and gives
    /// status 1, or ``diskFullStatus`` for a full disk.
    static func run(errorPrefix: String = "Error: ", _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as ValidationError {
            throw error
        } catch let error as ExitCode {
            throw error
        } catch {
            throw report(error, errorPrefix: errorPrefix)
        }
    }

    /// Runs an asynchronous `body`, with the same treatment of failures.
    static func run(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as ValidationError {
            throw error
        } catch let error as ExitCode {
            throw error
        } catch {
            throw report(error, errorPrefix: "Error: ")
        }
    }

    /// Prints `error` on standard error and returns the status it gives.
    private static func report(_ error: any Error, errorPrefix: String) -> ExitCode {
        FileOutput.writeToStandardError(errorPrefix + TerminalText.escape("\(error)") + "\n")
        return error.isDiskFull ? ExitCode(diskFullStatus) : .failure
    }

    /// Writes `text` to standard output, its controls and bidi marks made
    /// visible (``TerminalText/escapeLines(_:)``): text outputs show names an
    /// app or a backup chose.
    static func print(_ text: String) throws {
        try FileOutput.writeToStandardOutput(Data(TerminalText.escapeLines(text).utf8))
    }
}
