import Crypto
import FileSystem
import Foundation
import SystemPackage

/// What copying one payload produced.
struct CopiedPayload: Sendable {
    var size: Int64
    /// The SHA-1 of the contents; nil for a sparse file whose holes were too large to hash.
    var digest: [UInt8]?
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
    func openSource(_ entry: ScannedEntry) throws(FileSystemError) -> (descriptor: FileDescriptor, status: FileStatus) {
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
        return try parent.openSeenWithStatus(entry.name, as: status)
    }

    /// Copies `input` (or `contents`) into `output`, a new empty file.
    ///
    /// A plain payload keeps the source's holes (see ``copySparse(from:status:to:)``);
    /// an encrypted one cannot (ciphertext of zeros is not zeros), so its
    /// holes are read as zeros and encrypted like any other bytes; the
    /// writer checked beforehand that the file system holds them.
    func copy(from source: (descriptor: FileDescriptor, status: FileStatus)?, contents: Data?, to output: FileDescriptor,
              encryption: BackupEncryption?, protectionClass: BackupProtectionClass) throws -> CopiedPayload {
        let input = source?.descriptor
        if encryption == nil, contents == nil, let source { return try copySparse(from: source.descriptor, status: source.status, to: output) }
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
            if !padded {
                // An empty file still gets its padding block.
                let padding = try cipher?.encrypt(Data(), isLast: true) ?? Data()
                try output.writeFully(padding)
            }
        }
        return CopiedPayload(size: size, digest: Array(hasher.finalize()), encryptionKey: encryptionKey)
    }

    /// Copies a plain file extent by extent (`SEEK_DATA`/`SEEK_HOLE`): each
    /// data extent is written at its own offset and the holes are left as
    /// holes, so the payload is as sparse as the source and a 1 TB file of
    /// a few extents is a few writes. The size is the one seen when the
    /// file was opened (a file that shrinks meanwhile is recorded as read).
    ///
    /// The digest (MBFile `Digest`, the SHA-1 of every byte) counts a hole
    /// as its zeros while the holes add up to at most
    /// ``BackupSparseFiles/hashedHoleLimit``; past that the payload gets no
    /// digest, as a hashing of a terabyte of zeros would take longer than
    /// the rest of the backup (readers check a payload without one by size).
    func copySparse(from input: FileDescriptor, status: FileStatus, to output: FileDescriptor) throws -> CopiedPayload {
        var hasher = Insecure.SHA1()
        var holes = BackupSparseFiles.HoleHasher()
        let size = status.size
        // As many bytes allocated as the size: no holes to look for.
        let seeksHoles = status.allocatedBytes < size
        var position: UInt64 = 0
        var shrank = false
        copying: while position < size {
            let found = seeksHoles ? try input.dataExtent(from: position, size: size) : DataExtent(offset: position, length: size - position)
            guard let extent = found else { break }
            holes.add(extent.offset - position, to: &hasher)
            position = extent.offset
            while position < extent.end {
                let wanted = Int(min(UInt64(Self.pieceSize), extent.end - position))
                let count = try input.readFully(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]), at: position)
                if count == 0 { shrank = true; break copying }
                let piece = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
                hasher.update(bufferPointer: piece)
                try output.writeFully(piece, at: position)
                position += UInt64(count)
            }
        }
        if position < size && !shrank {
            // A trailing hole. (A file that shrank is recorded as far as its data was read.)
            holes.add(size - position, to: &hasher)
            position = size
        }
        if holes.total > 0 { try output.truncate(to: position) }
        return CopiedPayload(size: Int64(position), digest: holes.digest(hasher), encryptionKey: nil)
    }
}

/// How payloads keep the holes of sparse files, shared by the writer and the reader.
enum BackupSparseFiles {
    /// The most hole bytes hashed as zeros into a payload's digest (64 MiB,
    /// a fraction of a second of SHA-1); a file with more holes is recorded,
    /// and checked, by size alone.
    static let hashedHoleLimit: UInt64 = 64 << 20

    /// 1 MiB of zeros, hashed in place of a hole.
    static let zeros = [UInt8](repeating: 0, count: 1 << 20)

    /// Hashes holes as zeros up to ``hashedHoleLimit``; past it, gives up the digest.
    struct HoleHasher {
        private(set) var total: UInt64 = 0

        /// Whether every hole so far was hashed (so the digest covers every byte).
        var isHashed: Bool { total <= hashedHoleLimit }

        mutating func add(_ count: UInt64, to hasher: inout Insecure.SHA1) {
            guard count > 0 else { return }
            total += count
            guard isHashed else { return }
            var left = count
            zeros.withUnsafeBytes { zeroBytes in
                while left > 0 {
                    let piece = Int(min(left, UInt64(zeroBytes.count)))
                    hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: zeroBytes[0..<piece]))
                    left -= UInt64(piece)
                }
            }
        }

        /// The digest, or nil when holes were left out of it.
        func digest(_ hasher: Insecure.SHA1) -> [UInt8]? { isHashed ? Array(hasher.finalize()) : nil }
    }
}
