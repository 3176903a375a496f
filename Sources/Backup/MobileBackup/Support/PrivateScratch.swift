import FileSystem
import Foundation
import SystemPackage

/// A private directory (mode 0700, in the temporary directory) for the
/// copies of a backup's database that SQLite must open by path: the
/// decrypted Manifest.db, or a copy out of a read-only backup. Its files
/// are created 0600, so no other user reads a decrypted manifest while a
/// command runs; the directory and everything in it go when the value does,
/// on every path out (success, error, or a database that failed to open).
final class PrivateScratch: Sendable {
    /// The directory, held open: files are made in it with `*at` calls.
    let handle: DirectoryHandle
    private let parent: FileDescriptor
    private let name: String

    init() throws {
        let parentPath = FileManager.default.temporaryDirectory.standardizedFileURL.path
        name = "sandbox-manifest-\(UUID().uuidString)"
        do {
            parent = try FileDescriptor.openDirectory(atPath: parentPath, followLinks: true)
        } catch {
            throw MobileBackupError.io(error, parentPath, "cannot open the temporary directory")
        }
        do {
            try parent.makeDirectory(name, permissions: 0o700)
            handle = DirectoryHandle(adopting: try parent.openDirectory(name), path: parentPath + "/" + name)
        } catch {
            _ = try? parent.removeTree(name)
            parent.closeQuietly()
            throw MobileBackupError.io(error, parentPath + "/" + name, "cannot make a private temporary directory")
        }
    }

    deinit {
        _ = try? parent.removeTree(name)
        parent.closeQuietly()
    }

    /// The full path of `name` in the directory (for SQLite, which opens by path).
    func path(_ name: String) -> String { handle.path + "/" + name }

    /// Creates the file `name` (0600) holding `data`.
    func write(_ data: Data, _ name: String) throws {
        try backupIO(path(name)) { () throws(FileSystemError) in try handle.descriptor.createFile(name, data, permissions: 0o600) }
    }
}
