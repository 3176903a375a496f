import FileSystem
import Foundation
import SystemPackage

/// The `xx/` bucket directories of one backup directory, each opened once,
/// never through a link (a bucket that is a symbolic link is refused with
/// `ELOOP`, not followed), and held for the value's life. Shared by worker
/// threads.
final class PayloadBuckets: Sendable {
    /// The backup directory the buckets are in.
    let directory: DirectoryHandle
    /// Whether a missing bucket is created (writers) or an error (readers).
    let creates: Bool
    private let opened = Locked<[Substring: FileDescriptor]>([:])

    init(_ directory: DirectoryHandle, creates: Bool) {
        self.directory = directory
        self.creates = creates
    }

    deinit { opened.withLock { for fd in $0.values { fd.closeQuietly() } } }

    /// The open bucket that holds (or will hold) `fileID`'s payload.
    func bucket(for fileID: String) throws(FileSystemError) -> FileDescriptor {
        let name = fileID.prefix(2)
        return try opened.withLock { opened throws(FileSystemError) -> FileDescriptor in
            if let fd = opened[name] { return fd }
            let fd: FileDescriptor
            if creates {
                fd = try directory.descriptor.ensureDirectory(String(name))
            } else {
                fd = try directory.descriptor.openDirectory(String(name))
            }
            opened[name] = fd
            return fd
        }
    }
}
