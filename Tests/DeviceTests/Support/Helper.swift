import Foundation
import Testing

/// An executable of this build (a test helper), found next to the tests.
enum Helper {
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func locate(_ name: String) -> URL? {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent(name),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name),
            Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent(name),
            packageRoot.appendingPathComponent(".build/debug/\(name)"),
        ].compactMap { $0 }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Starts `name` with `arguments`; its standard output goes to `output`
    /// (discarded when nil).
    static func start(_ name: String, _ arguments: [String], output: Pipe? = nil) throws -> Process {
        let executable = try #require(locate(name), "\(name) was not built")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = output ?? FileHandle.nullDevice
        try process.run()
        return process
    }
}
