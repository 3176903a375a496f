import Foundation
import TestSupport
import Testing

/// Runs the built `sandbox` executable and captures what it did.
///
/// `swift test` builds the executable because the test target depends on it;
/// it sits next to the test bundle in the build directory.
struct SandboxProcess {
    /// The outcome of one run.
    typealias Result = ChildProcess.Result

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
        return try ChildProcess.run(executable, (subcommand.map { [$0] } ?? []) + arguments, input: input,
                                    in: directory, environment: environment)
    }
}
