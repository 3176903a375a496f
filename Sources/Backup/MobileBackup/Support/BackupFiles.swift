import FileSystem
import SystemPackage
import Foundation

// The few file operations the format needs, on held directories: every name
// is one component of a directory this module opened itself (never a path
// built from outside), and nothing is followed through a symbolic link.

extension MobileBackupError {
    /// A failed file-system call, as a backup error about `path` (the full
    /// path for people; the call itself used a held directory).
    static func io(_ error: FileSystemError, _ path: String, _ action: String? = nil) -> MobileBackupError {
        MobileBackupError(.ioFailed, path: path, action.map { "\($0): \(error.reason)" } ?? error.description)
    }
}

/// Runs `body`, turning a ``FileSystemError`` into ``MobileBackupErrorCode/ioFailed`` about `path`.
@inline(__always)
func backupIO<T>(_ path: @autoclosure () -> String, _ body: () throws(FileSystemError) -> T) throws(MobileBackupError) -> T {
    do { return try body() } catch { throw MobileBackupError.io(error, path()) }
}

extension FileDescriptor {
    /// Creates the file `name` here, which must not exist (nor be a link),
    /// and writes `data` into it.
    func createFile(_ name: String, _ data: Data, permissions: UInt32 = 0o644) throws(FileSystemError) {
        let file = try open(name, .writeOnly, options: [.create, .exclusiveCreate, .noFollow], permissions: permissions)
        defer { file.closeQuietly() }
        try file.writeFully(data)
    }

    /// The whole regular file `name` here, or nil when nothing is there; a
    /// link there is refused (`ELOOP`), never followed.
    func readFileIfPresent(_ name: String) throws(FileSystemError) -> Data? {
        let file: FileDescriptor
        do { file = try open(name, .readOnly, options: [.noFollow, .nonBlocking]) } catch {
            if error.isNotFound { return nil }
            throw error
        }
        defer { file.closeQuietly() }
        return try file.readAll()
    }

    /// Copies the regular file `name` here to a new file `newName` in
    /// `directory` (neither followed through a link).
    func copyFile(_ name: String, to directory: FileDescriptor, _ newName: String) throws(FileSystemError) {
        let input = try open(name, .readOnly, options: [.noFollow, .nonBlocking])
        defer { input.closeQuietly() }
        let output = try directory.open(newName, .writeOnly, options: [.create, .exclusiveCreate, .noFollow], permissions: 0o600)
        defer { output.closeQuietly() }
        try input.copyContents(to: output)
    }

    /// The directory `name` here, made if missing. Something else in its
    /// place (a link, a file) is removed first: a directory this module
    /// needs is never reached through a link.
    func ensureDirectory(_ name: String, permissions: UInt32 = 0o755) throws(FileSystemError) -> FileDescriptor {
        var attempts = 0
        while true {
            do { return try openDirectory(name) } catch {
                attempts += 1
                guard attempts < 8, error.isNotFound || error.isLoop || error.isNotDirectory else { throw error }
                if !error.isNotFound { try removeIfPresent(name) }
                do { try makeDirectory(name, permissions: permissions) } catch { if !error.isExists { throw error } }
            }
        }
    }
}

extension DirectoryHandle {
    /// The directory at `path`, made with its missing parents, held open;
    /// a failure is ``MobileBackupErrorCode/ioFailed`` saying `cannot <action>`.
    static func making(_ path: String, _ action: String) throws -> DirectoryHandle {
        do {
            try FileSystemPaths.makeDirectories(atPath: path)
            return try DirectoryHandle(openingAt: path)
        } catch {
            throw MobileBackupError(.ioFailed, path: path, "cannot \(action): \(error)")
        }
    }
}
