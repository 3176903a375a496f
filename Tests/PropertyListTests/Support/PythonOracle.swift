import Foundation

/// Runs `Tests/Oracles/plist_oracle.py`, the independent Python readers and
/// writers (plistlib, biplist) that interop tests compare against.
enum PythonOracle {
    static let script = SharedFixtures.packageRoot.appendingPathComponent("Tests/Oracles/plist_oracle.py")

    struct Result {
        var status: Int32
        var output: String
        var errors: String
    }

    static func run(_ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      output: String(decoding: outputData, as: UTF8.self),
                      errors: String(decoding: errorData, as: UTF8.self))
    }
}
