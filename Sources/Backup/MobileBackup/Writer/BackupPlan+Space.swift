import FileSystem
import Foundation

extension BackupPlan {
    /// The disk a backup's new payloads and rows take, counted before any is
    /// written: a plain payload keeps its source's holes, so a sparse file
    /// counts its allocated bytes, not its size; an encrypted payload
    /// cannot (ciphertext has no holes), so it counts its whole padded size.
    /// Each payload is rounded up to whole 4 KiB blocks, and each row counts
    /// 1 KiB of Manifest.db.
    func bytesNeeded(copying indices: [Int]) -> UInt64 {
        let block: UInt64 = 4_096
        var total = UInt64(entries.count) * 1_024
        for index in indices {
            let entry = entries[index]
            let size = entry.status?.size ?? UInt64(entry.contents?.count ?? 0)
            let stored: UInt64
            if encryption != nil {
                stored = (size / 16 + 1) * 16
            } else if let status = entry.status, status.allocatedBytes < status.size {
                stored = status.allocatedBytes
            } else {
                stored = size
            }
            total += (stored + block - 1) / block * block
        }
        return total
    }

    /// Refuses (``MobileBackupErrorCode/insufficientSpace``), before any
    /// payload is written, a backup whose new payloads and rows the file
    /// system of `target` cannot hold: a disk filled half-way would stop the
    /// backup anyway, after minutes of writing, and leave every other writer
    /// on that disk without space.
    func checkFreeSpace(copying indices: [Int], into target: DirectoryHandle) throws {
        let needed = bytesNeeded(copying: indices)
        let space = try backupIO(target.path) { () throws(FileSystemError) in try target.descriptor.space() }
        guard needed > space.available else { return }
        let kind = encryption == nil ? "sparse files counted by their data" : "encrypted, so sparse files count their whole size"
        throw MobileBackupError(.insufficientSpace, path: target.path,
                                "the backup needs about \(needed) bytes for \(indices.count) payloads (\(kind)) "
                                + "and the file system has \(space.available) bytes free; nothing was copied")
    }
}
