import Crypto
import Foundation
import TestSupport

/// Runs `Tests/Oracles/backup_oracle.py`: iOSbackup, pyiosbackup, mvt and
/// iphone_backup_decrypt, four independent Python readers of iOS backups.
enum BackupOracle {
    static let script = BackupFixture.packageRoot.appendingPathComponent("Tests/Oracles/backup_oracle.py")

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// One row as a tool saw it.
    struct Entry: Sendable, Hashable {
        var flags: Int
        var size: Int?
        /// Hex SHA-1 of the bytes the tool gave back, nil when it gave none.
        var sha1: String?
        /// iOSbackup's quirk: a 0-byte file of a plain backup comes back as a folder.
        var folder: Bool
    }

    /// What one tool read: `domain/relativePath` → entry, or the tool's error.
    struct Reading: Sendable {
        var files: [String: Entry]
        var info: [String: String]
        var error: String?
    }

    /// Reads the backup at `directory` with each of `tools`, in one Python run.
    static func read(_ directory: URL, password: String? = nil, tools: [String]) throws -> [String: Reading] {
        let result = try ChildProcess.python([script.path, "read", directory.path, "--tools", tools.joined(separator: ",")]
                                             + (password.map { ["--password", $0] } ?? []))
        guard result.status == 0 else {
            // A missing package is a failure: CI installs Tests/Oracles/requirements.txt.
            throw Failure(description: "backup_oracle.py exited \(result.status): \(result.standardError)")
        }
        guard let parsed = try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: [String: Any]] else {
            throw Failure(description: "backup_oracle.py printed no JSON object")
        }
        return parsed.mapValues { tool in
            var files: [String: Entry] = [:]
            for (key, value) in tool["files"] as? [String: [String: Any]] ?? [:] {
                files[key] = Entry(flags: value["flags"] as? Int ?? 0, size: value["size"] as? Int,
                                   sha1: value["sha1"] as? String, folder: value["folder"] as? Bool ?? false)
            }
            let info = (tool["info"] as? [String: Any] ?? [:]).mapValues { "\($0)" }
            return Reading(files: files, info: info, error: tool["error"] as? String)
        }
    }

    static func sha1(_ data: Data) -> String {
        Insecure.SHA1.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }
}
