import Foundation

/// How hard a flush works to keep a preferences file across failures.
public enum PreferencesDurability: Sendable, Hashable {
    /// The file is replaced atomically (in a container:
    /// `WriteDurability.processCrashSafe`, a name swap; by path: a rename):
    /// a process that crashes or is killed at any point leaves the old file
    /// or the new one, never a torn one. Nothing is forced to disk, so a
    /// power loss soon after may lose the latest flushes or leave an empty
    /// file (read as an empty domain and reported in `lastProblem`). This is
    /// what `synchronize()` and coalesced writes use, as cfprefsd does.
    case atomic
    /// As ``atomic``, and the file and its directory are flushed to disk
    /// before the call returns. Used when the app goes to the background
    /// or terminates.
    case durable
}

/// Where one domain's file lives, and how it is read, replaced and locked.
///
/// The seam between the domain logic and the file system: a container
/// domain goes through the container's confined file API, a domain named
/// by a plain path through ``FileDomainStorage``, and tests may count or
/// break writes.
protocol DomainStorage: Sendable {
    /// The file, for messages and for sharing one domain per process.
    var path: String { get }
    /// The file's bytes, or `nil` if it does not exist.
    func read() throws -> Data?
    /// Replaces the file with `data` atomically.
    func write(_ data: Data, durability: PreferencesDurability) throws
    /// Runs `body` holding the domain's exclusive inter-process lock.
    func withExclusiveLock<T>(_ body: () throws -> T) throws -> T
}

/// A domain file at a plain path, outside any container.
struct FileDomainStorage: DomainStorage {
    let path: String

    init(path: String) { self.path = path }

    /// The lock file beside the domain file, `.<name>.lock`: the name
    /// `AppContainer.withExclusiveLock(on:)` uses, so a tool writing the file
    /// by path and an app writing it through its container exclude each
    /// other. Every writer locks it, never the domain file itself, which is
    /// replaced on each write.
    var lockPath: String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".lock").path
    }

    func read() throws -> Data? {
        do {
            return try Platform.readFile(path)
        } catch {
            throw PreferencesError(.storageFailed, path: path, "cannot read: \(error.reason)")
        }
    }

    func write(_ data: Data, durability: PreferencesDurability) throws {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let temporary = directory + "/." + url.lastPathComponent + ".\(Platform.processIdentifier).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let replace = { () throws(Platform.CallError) in
            try Platform.replaceFile(path, with: data, temporaryPath: temporary, durable: durability == .durable)
        }
        do {
            try replace()
        } catch where error.isNotFound {
            // The first write of a domain creates Library/Preferences.
            try createDirectoryIfMissing(directory)
            do { try replace() } catch { throw Self.failure("write", error, path) }
        } catch {
            throw Self.failure("write", error, path)
        }
    }

    func withExclusiveLock<T>(_ body: () throws -> T) throws -> T {
        do {
            return try Platform.withExclusiveLock(lockPath, body)
        } catch let error as Platform.CallError where error.isNotFound {
            try createDirectoryIfMissing(URL(fileURLWithPath: path).deletingLastPathComponent().path)
            do {
                return try Platform.withExclusiveLock(lockPath, body)
            } catch let error as Platform.CallError {
                throw Self.failure("lock", error, path)
            }
        } catch let error as Platform.CallError {
            throw Self.failure("lock", error, path)
        }
    }

    private static func failure(_ operation: String, _ error: Platform.CallError, _ path: String) -> PreferencesError {
        PreferencesError(.storageFailed, path: path, "cannot \(operation) (\(error.call)): \(error.reason)")
    }

    private func createDirectoryIfMissing(_ directory: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw PreferencesError(.storageFailed, path: directory, "cannot create the directory: \(error)")
        }
    }
}
