import Foundation

/// Runs `Tests/Oracles/archive_oracle.py`: nska-deserialize and the
/// NSKeyedUnArchiver package, two independent Python keyed-archive readers.
enum ArchiveOracle {
    static let script = ArchiveFixtures.packageRoot.appendingPathComponent("Tests/Oracles/archive_oracle.py")

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Each file's decoding by each library, as canonical JSON text keyed by
    /// file name, then library (`nska`, `nskeyedunarchiver`).
    static func describe(_ files: [URL]) throws -> [String: [String: String]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, "describe"] + files.map(\.path)
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            // A missing package is a failure: CI installs Tests/Oracles/requirements.txt.
            throw Failure(description: "archive_oracle.py exited \(process.terminationStatus): \(String(decoding: errorData, as: UTF8.self))")
        }
        guard let parsed = try JSONSerialization.jsonObject(with: outputData) as? [String: [String: Any]] else {
            throw Failure(description: "archive_oracle.py printed no JSON object")
        }
        return try parsed.mapValues { libraries in
            try libraries.mapValues { try canonical($0) }
        }
    }

    /// JSON text with sorted keys, for comparing trees.
    static func canonical(_ value: Any) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
        return String(decoding: data, as: UTF8.self)
    }

    /// Canonical form of an expected tree written as JSON text.
    static func canonical(json text: String) throws -> String {
        try canonical(JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]))
    }
}
