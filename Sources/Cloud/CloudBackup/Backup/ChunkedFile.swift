import CloudProtocol
import FileSystem
import SystemPackage
import Foundation

/// A file of the staged backup cut into fixed-size chunks, with where each
/// chunk's bytes are, so only the chunks the service lacks are read again.
struct ChunkedFile: Sendable {
    var entry: SnapshotManifest.File
    /// The file on disk.
    var path: String

    /// Cuts the file at `path` into ``CloudLimits/chunkBytes`` pieces and names each.
    static func chunk(path: String, relativePath: String, status: FileStatus, cipher: ChunkCipher) throws(CloudBackupError) -> ChunkedFile {
        let descriptor: FileDescriptor
        do { descriptor = try FileDescriptor.open(atPath: path, .readOnly) } catch {
            throw CloudBackupError(.io, "cannot read \(path)").caused(by: error)
        }
        defer { descriptor.closeQuietly() }
        var chunks: [ChunkID] = []
        var offset: UInt64 = 0
        while true {
            let piece: Data
            do { piece = try descriptor.read(count: CloudLimits.chunkBytes, at: offset) } catch {
                throw CloudBackupError(.io, "cannot read \(path)").caused(by: error)
            }
            if piece.isEmpty && !chunks.isEmpty { break }
            chunks.append(cipher.id(of: piece))
            offset += UInt64(piece.count)
            if piece.count < CloudLimits.chunkBytes { break }
        }
        return ChunkedFile(entry: .init(path: relativePath, size: Int64(offset), chunks: chunks, modified: status.modificationNanoseconds),
                           path: path)
    }

    /// The plaintext of chunk `index`.
    func piece(_ index: Int) throws(CloudBackupError) -> Data {
        let descriptor: FileDescriptor
        do { descriptor = try FileDescriptor.open(atPath: path, .readOnly) } catch {
            throw CloudBackupError(.io, "cannot read \(path)").caused(by: error)
        }
        defer { descriptor.closeQuietly() }
        do { return try descriptor.read(count: CloudLimits.chunkBytes, at: UInt64(index) * UInt64(CloudLimits.chunkBytes)) } catch {
            throw CloudBackupError(.io, "cannot read \(path)").caused(by: error)
        }
    }
}
