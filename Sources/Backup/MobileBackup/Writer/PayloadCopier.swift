import Crypto
import FileSystem
import Foundation
import SystemPackage

/// What copying one payload produced.
struct CopiedPayload: Sendable {
    var size: Int64
    var digest: [UInt8]
    var encryptionKey: Data?
}

/// Copies one file's contents into the backup: read in 1 MiB pieces, each
/// hashed (SHA-1, the MBFile `Digest`) and, in an encrypted backup,
/// encrypted with a fresh per-file key before it is written. One copier per
/// worker thread, so each owns its buffer and its open source directory.
///
/// The bytes pass through this process rather than `copyContents(to:)`
/// (`copy_file_range`) because the digest needs them.
///
/// A source file is opened only beneath its domain's held root, never
/// through a link, and only if it is still the file the walk saw
/// (``FileDescriptor/openSeen(_:as:)``: device, inode and kind). What the
/// kernel lets an app do between the walk and the read, and what is caught:
/// - a file swapped for a symbolic link, a directory or another file (a
///   hard link to something else included): its inode differs, the open
///   fails with `ESTALE`, the item is skipped and reported;
/// - a directory swapped for a link (to lead the open elsewhere): the
///   directory opened is checked against the one the walk saw, and nothing
///   resolves outside the root (`RESOLVE_BENEATH`);
/// - a hard link the app made to an outside file *before* the walk is, as
///   far as the kernel can tell, the app's own file: same inode at scan and
///   read, so it is backed up, as iOS would. An app can only make one to a
///   file on its own file system that it may already read (Linux's
///   `protected_hardlinks` forbids linking files of other users), so it
///   learns nothing new; nothing here can tell such a link from a file.
/// - a file that grows or shrinks after the walk (same inode): the backup
///   records what was read, size and digest of those bytes, so the row and
///   the payload always agree; the next backup sees the new size and copies
///   it again.
final class PayloadCopier {
    static let pieceSize = 1 << 20
    private let buffer: UnsafeMutableRawBufferPointer
    /// The directory the previous source file was in (files come in walk
    /// order, so most share it): its root, its path, and the open directory.
    private var cachedParent: (root: ObjectIdentifier, path: String, descriptor: FileDescriptor)?

    init() {
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.pieceSize, alignment: 16)
    }

    deinit {
        buffer.deallocate()
        cachedParent?.descriptor.closeQuietly()
    }

    /// Opens the file `entry` names for reading, only if it is still the one
    /// the walk saw; `ESTALE` (``FileSystemError/isChangedSinceScan``) when not.
    func openSource(_ entry: ScannedEntry) throws(FileSystemError) -> FileDescriptor {
        guard let root = entry.root, let status = entry.status else {
            throw FileSystemError(.invalidArgument, "open", path: entry.relativePath)
        }
        let parentPath = entry.parentPath
        let parent: FileDescriptor
        if let cached = cachedParent, cached.root == ObjectIdentifier(root), cached.path == parentPath {
            parent = cached.descriptor
        } else {
            cachedParent?.descriptor.closeQuietly()
            cachedParent = nil
            parent = try root.open(parentPath, .readOnly, options: .directory, followFinal: false)
            if let seen = entry.parentStatus {
                let opened: FileStatus
                do { opened = try parent.status() } catch { parent.closeQuietly(); throw error }
                guard opened.isSameFile(as: seen) else {
                    parent.closeQuietly()
                    throw FileSystemError(.staleNFSFileHandle, "read (its directory changed since it was scanned)", path: parentPath)
                }
            }
            cachedParent = (ObjectIdentifier(root), parentPath, parent)
        }
        return try parent.openSeen(entry.name, as: status)
    }

    /// Copies `input` (or `contents`) into `output`, a new empty file.
    func copy(from input: FileDescriptor?, contents: Data?, to output: FileDescriptor, encryption: BackupEncryption?,
              protectionClass: BackupProtectionClass) throws -> CopiedPayload {
        var hasher = Insecure.SHA1()
        var cipher: CBCStream?
        var encryptionKey: Data?
        if let encryption {
            let fileKey = try encryption.newFileKey(protectionClass: protectionClass)
            cipher = try CBCStream(key: fileKey.key)
            encryptionKey = fileKey.blob
        }
        var size: Int64 = 0

        // Plain: write each piece as read. Encrypted: a piece is only known to
        // be the last (and so padded) once the next read comes back empty.
        var pending: Data?
        func emit(_ piece: UnsafeRawBufferPointer, isLast: Bool) throws {
            hasher.update(bufferPointer: piece)
            size += Int64(piece.count)
            if cipher != nil {
                let encrypted = try cipher?.encrypt(piece, isLast: isLast) ?? Data()
                try output.writeFully(encrypted)
            } else {
                try output.writeFully(piece)
            }
        }

        if let contents {
            try contents.withUnsafeBytes { try emit($0, isLast: true) }
        } else if let input {
            var padded = false
            while true {
                let count = try input.readFully(into: buffer)
                if cipher == nil {
                    if count == 0 { break }
                    try emit(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), isLast: false)
                    continue
                }
                if let held = pending {
                    pending = nil
                    try held.withUnsafeBytes { try emit($0, isLast: count == 0) }
                    if count == 0 { padded = true; break }
                }
                if count == 0 { break }
                if count < Self.pieceSize {
                    try emit(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), isLast: true)
                    padded = true
                    break
                }
                pending = Data(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            }
            if cipher != nil && !padded {
                // An empty file still gets its padding block.
                let padding = try cipher?.encrypt(Data(), isLast: true) ?? Data()
                try output.writeFully(padding)
            }
        }
        return CopiedPayload(size: size, digest: Array(hasher.finalize()), encryptionKey: encryptionKey)
    }
}
