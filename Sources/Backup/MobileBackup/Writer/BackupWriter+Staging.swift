import FileSystem
import Foundation

/// One writer per backup, and no staging tree outlives its writer.
///
/// A full backup is built in `<UDID>.sandbox-staging` beside the live one;
/// a writer killed while building (or before it removed the old tree after
/// the swap) leaves that folder, which for a large sparse file could hold
/// gigabytes. Each writer holds an exclusive `flock` on `.<UDID>.lock` in
/// the backups directory for its whole run (the kernel drops it when the
/// process dies), so the next writer in that directory, for any device,
/// knows a staging folder whose lock it can take was abandoned and removes
/// it before it writes anything, and a second writer of the same backup is
/// refused rather than removing the first one's staging under it.
extension BackupWriter {
    static let stagingSuffix = ".sandbox-staging"

    /// Takes the writer's lock on the backup `live` in `backups`;
    /// ``MobileBackupErrorCode/backupInProgress`` if another process holds it.
    func lockBackup(_ live: String, in backups: DirectoryHandle) throws -> LockFile {
        let lockPath = backups.path + "/" + LockFile.lockName(for: live)
        let lock = try backupIO(lockPath) { () throws(FileSystemError) in
            try LockFile.tryAcquire(for: live, in: backups.descriptor, permissions: 0o600)
        }
        guard let lock else {
            throw MobileBackupError(.backupInProgress, path: backups.path + "/" + live,
                                    "another process is writing this backup (it holds \(lockPath)); wait for it to finish")
        }
        return lock
    }

    /// Removes every `<name>.sandbox-staging` folder in `backups` whose
    /// writer is gone (its lock is free), this backup's own included;
    /// returns the names removed. A staging folder of a writer still at
    /// work is left alone. Nothing is followed through a link.
    @discardableResult
    func removeAbandonedStaging(in backups: DirectoryHandle, holding ownLive: String) throws -> [String] {
        let names = try backupIO(backups.path) { () throws(FileSystemError) in try backups.descriptor.sortedEntries() }
        var removed: [String] = []
        for name in names where name.hasSuffix(Self.stagingSuffix) {
            let live = String(name.dropLast(Self.stagingSuffix.count))
            guard !live.isEmpty else { continue }
            var otherLock: LockFile?
            if live != ownLive {
                otherLock = try backupIO(backups.path + "/" + LockFile.lockName(for: live)) { () throws(FileSystemError) in
                    try LockFile.tryAcquire(for: live, in: backups.descriptor, permissions: 0o600)
                }
                // Its writer is still running.
                guard otherLock != nil else { continue }
            }
            try backupIO(backups.path + "/" + name) { () throws(FileSystemError) in _ = try backups.descriptor.removeTree(name) }
            otherLock?.release()
            removed.append(name)
        }
        return removed
    }
}
