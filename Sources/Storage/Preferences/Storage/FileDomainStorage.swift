import FileSystem
import Foundation

/// A domain file at a plain path, outside any container, read, replaced
/// and locked through the file-system module.
struct FileDomainStorage: DomainStorage {
    let path: String

    init(path: String) { self.path = path }

    func read() throws -> Data? {
        do {
            return try FileSystemPaths.readFile(atPath: path)
        } catch {
            throw Self.failure("read the domain", error, path)
        }
    }

    /// Replaces the file atomically. Preferences files are private to their
    /// user (0600), as cfprefsd writes them.
    func write(_ data: Data, durability: PreferencesDurability) throws {
        let options = AtomicWriteOptions(durability: durability.fileSystemDurability, permissions: 0o600)
        do throws(FileSystemError) {
            try FileSystemPaths.writeAtomically(data, toPath: path, options: options)
        } catch where error.isNotFound {
            // The first write of a domain creates Library/Preferences.
            try createDirectoryIfMissing()
            do { try FileSystemPaths.writeAtomically(data, toPath: path, options: options) }
            catch { throw Self.failure("save the domain", error, path) }
        } catch {
            throw Self.failure("save the domain", error, path)
        }
    }

    /// Locks the lock file beside the domain file (``LockFile/lockName(for:)``,
    /// `.<name>.lock`): the name `AppContainer.withExclusiveLock(on:)` also
    /// uses, so a tool writing the file by path and an app writing it
    /// through its container exclude each other. Every writer locks it,
    /// never the domain file itself, which is replaced on each write.
    func withExclusiveLock<T>(_ body: () throws -> T) throws -> T {
        let lock: LockFile
        do throws(FileSystemError) {
            lock = try acquireLock()
        } catch where error.isNotFound {
            try createDirectoryIfMissing()
            do { lock = try acquireLock() } catch { throw Self.failure("lock the domain", error, path) }
        } catch {
            throw Self.failure("lock the domain", error, path)
        }
        defer { lock.release() }
        return try body()
    }

    func removeStaleTemporaries() throws {
        do throws(FileSystemError) {
            try FileSystemPaths.withParent(of: path) { parent, _ throws(FileSystemError) in
                _ = try parent.removeStaleTemporaries()
            }
        } catch where error.isNotFound {
            return
        } catch {
            throw Self.failure("remove stale temporary files", error, path)
        }
    }

    private func acquireLock() throws(FileSystemError) -> LockFile {
        try FileSystemPaths.withParent(of: path) { parent, name throws(FileSystemError) in
            try LockFile.acquire(for: name, in: parent, permissions: 0o600)
        }
    }

    private static func failure(_ operation: String, _ error: FileSystemError, _ path: String) -> PreferencesError {
        PreferencesError(.storageFailed, path: path, "cannot \(operation)").caused(by: error)
    }

    private func createDirectoryIfMissing() throws {
        let directory = FileSystemPaths.split(path).directory
        do {
            try FileSystemPaths.makeDirectories(atPath: directory)
        } catch {
            throw PreferencesError(.storageFailed, path: directory, "cannot create the directory").caused(by: error)
        }
    }
}

extension PreferencesDurability {
    /// The atomic replace's durability: a rename (a name swap) alone for
    /// ``atomic``, the file and directory flushed for ``durable``.
    var fileSystemDurability: Durability {
        switch self {
        case .atomic: .none
        case .durable: .full
        }
    }
}
