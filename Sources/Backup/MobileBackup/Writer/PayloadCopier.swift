import Crypto
import Foundation

/// What copying one payload produced.
struct CopiedPayload: Sendable {
    var size: Int64
    var digest: [UInt8]
    var encryptionKey: Data?
}

/// Copies one file's contents into the backup: read in 1 MiB pieces, each
/// hashed (SHA-1, the MBFile `Digest`) and, in an encrypted backup,
/// encrypted with a fresh per-file key before it is written. One copier per
/// worker thread, so each owns its buffer.
final class PayloadCopier {
    static let pieceSize = 1 << 20
    private let buffer: UnsafeMutableRawBufferPointer

    init() {
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.pieceSize, alignment: 16)
    }

    deinit {
        buffer.deallocate()
    }

    /// Copies the file at `source` (or `contents`) to `destination`, which must not exist.
    func copy(source: String?, contents: Data?, to destination: String, encryption: BackupEncryption?,
              protectionClass: BackupProtectionClass) throws -> CopiedPayload {
        var hasher = Insecure.SHA1()
        var cipher: CBCStream?
        var encryptionKey: Data?
        if let encryption {
            let fileKey = try encryption.newFileKey(protectionClass: protectionClass)
            cipher = try CBCStream(key: fileKey.key)
            encryptionKey = fileKey.blob
        }
        let output = try Platform.createForWriting(destination)
        defer { Platform.close(output) }
        var size: Int64 = 0

        // Plain: write each piece as read. Encrypted: a piece is only known to
        // be the last (and so padded) once the next read comes back empty.
        var pending: Data?
        func emit(_ piece: UnsafeRawBufferPointer, isLast: Bool) throws {
            hasher.update(bufferPointer: piece)
            size += Int64(piece.count)
            if cipher != nil {
                let encrypted = try cipher?.encrypt(piece, isLast: isLast) ?? Data()
                try encrypted.withUnsafeBytes { try Platform.write(output, $0, path: destination) }
            } else {
                try Platform.write(output, piece, path: destination)
            }
        }

        if let contents {
            try contents.withUnsafeBytes { try emit($0, isLast: true) }
        } else if let source {
            let input = try Platform.openForReading(source)
            defer { Platform.close(input) }
            var padded = false
            while true {
                let count = try readFully(input, path: source)
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
                try padding.withUnsafeBytes { try Platform.write(output, $0, path: destination) }
            }
        }
        return CopiedPayload(size: size, digest: Array(hasher.finalize()), encryptionKey: encryptionKey)
    }

    /// Reads until the buffer is full or the file ends.
    private func readFully(_ descriptor: Int32, path: String) throws -> Int {
        var filled = 0
        while filled < Self.pieceSize {
            let count = try Platform.read(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]), path: path)
            if count == 0 { break }
            filled += count
        }
        return filled
    }
}
