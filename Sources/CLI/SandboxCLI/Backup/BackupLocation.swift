import ArgumentParser
import Device
import FileSystem
import Foundation
import MobileBackup

/// Options every `sandbox backup` command that reads a backup shares.
struct BackupReadOptions: ParsableArguments, JSONOrTextOutput {
    @Argument(help: ArgumentHelp(
        "The backup: its directory (the one holding Manifest.db), a directory holding exactly one backup, or a UDID under $SANDBOX_HOME/backups.",
        valueName: "backup"))
    var backup: String

    @Option(help: ArgumentHelp("The password of an encrypted backup.", valueName: "password"))
    var password: String?

    @Flag(help: "Print JSON (stable, sorted keys) instead of text.")
    var json = false

    /// The backup directory the argument names.
    func directory() throws -> URL {
        try BackupLocation.resolve(backup)
    }

    /// The backup, opened (and, if encrypted, unlocked).
    func reader() throws -> BackupReader {
        try BackupReader(directory: directory(), password: password)
    }
}

/// Finding backups on disk.
enum BackupLocation {
    /// Whether `url` is a backup directory (it holds `Manifest.db`).
    static func isBackup(_ url: URL) -> Bool {
        PathChecks.exists(url.appendingPathComponent("Manifest.db").path)
    }

    /// A backup directory from a path or a name under the default backups directory.
    static func resolve(_ argument: String) throws -> URL {
        let candidates = [URL(fileURLWithPath: argument), SandboxHome().backups.appendingPathComponent(argument)]
        for candidate in candidates {
            if isBackup(candidate) { return candidate.standardizedFileURL }
            let inner = try backups(in: candidate)
            if inner.count == 1 { return inner[0] }
            if inner.count > 1 {
                // The command's own error, not a usage error (which would print the top-level usage line).
                throw BackupLocationError(description: "\(candidate.path) holds \(inner.count) backups ("
                                          + inner.map(\.lastPathComponent).joined(separator: ", ")
                                          + "); name one of them, as \(inner[0].path)")
            }
        }
        throw BackupLocationError(description: "\(argument) is not a backup: it holds no Manifest.db and no backup directory, "
                                  + "and \(SandboxHome().backups.path) has no backup of that name")
    }

    /// The backup directories directly inside `directory`, sorted by name;
    /// none when nothing (or not a directory) is there. A directory that
    /// cannot be read is an error, not an empty listing.
    static func backups(in directory: URL) throws -> [URL] {
        let names: [String]
        do { names = try PathChecks.entries(directory.path) } catch {
            if error.isNotFound || error.isNotDirectory { return [] }
            throw BackupLocationError(description: "cannot read the directory \(directory.path): \(error.reason)")
        }
        return names.map { directory.appendingPathComponent($0).standardizedFileURL }.filter(isBackup)
    }
}

/// A backup argument that names no backup, or more than one: a sentence for
/// people, printed as `Error: …` with exit status 1.
struct BackupLocationError: Error, CustomStringConvertible {
    var description: String
}
