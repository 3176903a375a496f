import FileSystem
import SystemPackage
import Foundation

// The few file operations the format needs, on held directories: every name
// is one component of a directory this module opened itself (never a path
// built from outside), and nothing is followed through a symbolic link.

extension MobileBackupError {
    /// A failed file-system call, as a backup error about `path` (the full
    /// path for people; the call itself used a held directory), saying
    /// `action` (else the call's operation) and keeping the failure as the
    /// cause: a full disk stays `isDiskFull` for the caller at the top.
    static func io(_ error: FileSystemError, _ path: String, _ action: String? = nil) -> MobileBackupError {
        MobileBackupError(.ioFailed, path: path, action ?? "cannot \(error.operation)").caused(by: error)
    }
}

/// Runs `body`, turning a ``FileSystemError`` into ``MobileBackupErrorCode/ioFailed`` about `path`.
@inline(__always)
func backupIO<T>(_ path: @autoclosure () -> String, _ body: () throws(FileSystemError) -> T) throws(MobileBackupError) -> T {
    do { return try body() } catch { throw MobileBackupError.io(error, path()) }
}

extension DirectoryHandle {
    /// The status of the backup's own file `name` (`Info.plist`,
    /// `Manifest.db`, …), links not followed, or nil when nothing is there.
    /// Anything but a regular file is refused with
    /// ``MobileBackupErrorCode/notARegularFile`` saying what it is and
    /// where: a link is never followed, and a FIFO or a device is never
    /// opened (which could block, or act on the device).
    func backupFileStatus(_ name: String) throws -> FileStatus? {
        let path = self.path + "/" + name
        let status = try backupIO(path) { () throws(FileSystemError) in try descriptor.statusIfPresent(of: name) }
        guard let status else { return nil }
        guard status.isRegularFile else { throw MobileBackupError.notRegularFile(name, mode: status.mode, path: path) }
        return status
    }

    /// The whole regular file `name` of the backup, or nil when nothing is
    /// there; anything else is refused as ``backupFileStatus(_:)`` says. The
    /// file is opened without following a link and without blocking, and
    /// checked again once open (something swapped in meanwhile is refused too).
    func readBackupFile(_ name: String) throws -> Data? {
        guard try backupFileStatus(name) != nil else { return nil }
        let path = self.path + "/" + name
        let file: FileDescriptor
        do { file = try descriptor.open(name, .readOnly, options: [.noFollow, .nonBlocking]) } catch {
            if error.isNotFound { return nil }
            if error.isLoop { throw MobileBackupError.notRegularFile(name, mode: 0o120000, path: path) }
            throw MobileBackupError.io(error, path)
        }
        defer { file.closeQuietly() }
        let status = try backupIO(path) { () throws(FileSystemError) in try file.status() }
        guard status.isRegularFile else { throw MobileBackupError.notRegularFile(name, mode: status.mode, path: path) }
        return try backupIO(path) { () throws(FileSystemError) in try file.readAll() }
    }
}

extension MobileBackupError {
    /// ``MobileBackupErrorCode/notARegularFile``: the backup's file `name`
    /// at `path` is what `mode` says, not a regular file.
    static func notRegularFile(_ name: String, mode: UInt32, path: String) -> MobileBackupError {
        MobileBackupError(.notARegularFile, path: path,
                          "\(name) is \(fileKindName(mode)); a backup's files must be regular files, so it was refused (not followed or read)")
    }

    /// What a `st_mode` says a file is, for messages.
    static func fileKindName(_ mode: UInt32) -> String {
        switch mode & 0o170000 {
        case 0o120000: return "a symbolic link"
        case 0o040000: return "a directory"
        case 0o010000: return "a FIFO"
        case 0o020000: return "a character device"
        case 0o060000: return "a block device"
        case 0o140000: return "a socket"
        case 0o100000: return "a regular file"
        default: return "a special file"
        }
    }
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
            throw MobileBackupError(.ioFailed, path: path, "cannot \(action)").caused(by: error)
        }
    }
}
