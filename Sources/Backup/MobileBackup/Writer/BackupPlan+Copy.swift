import FileSystem
import Foundation
import SystemPackage

/// Where a run's new payloads go: flat in the incoming directory of an
/// in-place run, else at `xx/<fileID>` in the staging tree.
struct PayloadDestination: Sendable {
    /// The incoming directory (in place), or nil for the staging tree's buckets.
    var flat: DirectoryHandle?
    /// The staging tree's buckets (also where unchanged payloads are linked).
    var buckets: PayloadBuckets

    /// Creates the new payload file for `fileID` (it must not exist).
    func create(_ fileID: String) throws(FileSystemError) -> FileDescriptor {
        let directory: FileDescriptor
        if let flat { directory = flat.descriptor } else { directory = try buckets.bucket(for: fileID) }
        return try directory.open(fileID, .writeOnly, options: [.create, .exclusiveCreate, .noFollow], permissions: 0o644)
    }

    /// The payload's path, for messages.
    func path(_ fileID: String) -> String {
        flat.map { $0.path + "/" + fileID } ?? buckets.directory.path + "/" + BackupFileID.payloadPath(fileID)
    }
}

/// What copying one entry came to.
enum PayloadCopyResult {
    case copied(CopiedPayload)
    /// The file changed between the walk and the read; nothing was written.
    case skipped(BackupSkippedFile)
}

extension BackupPlan {
    /// Copies one entry's payload: its source opened as the walk saw it
    /// (see ``PayloadCopier``), or its in-memory bytes.
    func copyPayload(_ entry: ScannedEntry, with copier: PayloadCopier,
                     into destination: PayloadDestination) throws -> PayloadCopyResult {
        var input: (descriptor: FileDescriptor, status: FileStatus)?
        if entry.contents == nil {
            do { input = try copier.openSource(entry) } catch {
                // Gone, swapped (ESTALE), a link now (ELOOP), a directory
                // or a file where a directory was, or led outside (EXDEV).
                guard error.isChangedSinceScan || error.isNotFound || error.isLoop || error.isNotDirectory
                        || error.isEscape || error.isDirectory else {
                    throw MobileBackupError.io(error, (entry.root?.path ?? "") + "/" + entry.relativePath)
                }
                return .skipped(BackupSkippedFile(domain: entry.domain, relativePath: entry.relativePath,
                                                  reason: .changedSinceScan, message: error.description))
            }
        }
        defer { input?.descriptor.closeQuietly() }
        let path = destination.path(entry.fileID)
        let output = try backupIO(path) { () throws(FileSystemError) in try destination.create(entry.fileID) }
        defer { output.closeQuietly() }
        do {
            return .copied(try copier.copy(from: input, contents: entry.contents, to: output, encryption: encryption,
                                           protectionClass: entry.protectionClass))
        } catch let error as FileSystemError {
            throw MobileBackupError.io(error, path)
        }
    }
}
