import Foundation
import TestSupport

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
        let result = try ChildProcess.python([script.path, "describe"] + files.map(\.path))
        guard result.status == 0 else {
            // A missing package is a failure: CI installs Tests/Oracles/requirements.txt.
            throw Failure(description: "archive_oracle.py exited \(result.status): \(result.standardError)")
        }
        guard let parsed = try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: [String: Any]] else {
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
