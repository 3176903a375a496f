import FileSystem
import Foundation
import SystemPackage

/// How an incremental backup lands in the live backup without copying or
/// linking its unchanged payloads: a redo log.
///
/// The run writes the new and changed payloads (flat, named by fileID), the
/// updated Manifest.db, the fingerprints and the three property lists into
/// `<backup>/Sandbox.incoming/`, flushes them to disk, and only then writes
/// the journal `Sandbox.commit` (the payloads to delete) there. Applying
/// renames each incoming file into place (`Status.plist` last), deletes the
/// removed payloads and drops the directory. Every step can be repeated, so:
/// - interrupted before the journal exists: the incoming directory is
///   discarded, and the previous backup was never touched;
/// - interrupted after: the commit is finished (rolled forward) by the next
///   backup (or `BackupWriter.finishInterruptedBackup()`).
/// Readers never recover (reading a backup writes nothing): they ignore the
/// extra directory, as they ignore every unknown name, and see the previous
/// backup, which is whole until the commit is applied.
///
/// Every step works on the held live directory with `*at` calls; the
/// incoming directory and the buckets are opened without following links.
enum IncrementalCommit {
    static let directoryName = "Sandbox.incoming"
    static let journalName = "Sandbox.commit"
    /// The plaintext database an in-place run updates before it is encrypted (or renamed).
    static let plainDatabaseName = ".Manifest.plain.db"
    /// Moved in after the payloads, `Status.plist` last: it marks the snapshot finished.
    static let metadataFiles = ["Manifest.db", FingerprintIndex.fileName, "Info.plist", "Manifest.plist", "Status.plist"]

    /// Seals the incoming run (journal written and flushed) and applies it.
    /// (`stopsBeforeApplying` is a testing hook: a crash right after the seal.)
    static func commit(live: DirectoryHandle, incoming: DirectoryHandle, removedPayloads: [String], flushes: Bool,
                       stopsBeforeApplying: Bool = false) throws {
        try backupIO(incoming.path + "/" + journalName) { () throws(FileSystemError) in
            // The payloads were flushed before; the journal and its name are
            // made durable with it (.full), or not at all for a run that
            // does not flush.
            let options = AtomicWriteOptions(durability: flushes ? .full : .none, permissions: 0o644)
            try incoming.descriptor.writeAtomically(Data(removedPayloads.joined(separator: "\n").utf8),
                                                    to: journalName, options: options)
        }
        if stopsBeforeApplying {
            throw MobileBackupError(.interrupted, path: incoming.path, "the backup was interrupted after its commit was sealed")
        }
        try apply(live: live, incoming: incoming)
    }

    /// Finishes a sealed run, or discards an unsealed one; nothing to do when there is none.
    static func recover(live: DirectoryHandle) throws {
        try backupIO(live.path + "/" + directoryName) { () throws(FileSystemError) in
            guard try live.descriptor.statusIfPresent(of: directoryName) != nil else { return }
            let incoming: DirectoryHandle
            do throws(FileSystemError) { incoming = try live.directory(directoryName) } catch {
                // Not a directory (a link, a file): no run of ours; it goes.
                guard error.isLoop || error.isNotDirectory else { throw error }
                try live.descriptor.removeIfPresent(directoryName)
                return
            }
            if try incoming.descriptor.statusIfPresent(of: journalName) != nil {
                try applyFiles(live: live, incoming: incoming)
            } else {
                _ = try live.descriptor.removeTree(directoryName)
            }
        }
    }

    private static func apply(live: DirectoryHandle, incoming: DirectoryHandle) throws {
        try backupIO(incoming.path) { () throws(FileSystemError) in try applyFiles(live: live, incoming: incoming) }
    }

    private static func applyFiles(live: DirectoryHandle, incoming: DirectoryHandle) throws(FileSystemError) {
        let from = incoming.descriptor
        let removed = try from.readFileIfPresent(journalName).map {
            String(decoding: $0, as: UTF8.self).split(separator: "\n").map(String.init)
        } ?? []
        let buckets = PayloadBuckets(live, creates: true)
        for name in try from.entries() where BackupFileID.isFileID(name) {
            try from.rename(name, to: try buckets.bucket(for: name), name)
        }
        for fileID in removed where BackupFileID.isFileID(fileID) {
            do { try buckets.bucket(for: fileID).removeIfPresent(fileID) } catch {
                if !error.isNotFound { throw error }
            }
        }
        for name in metadataFiles where try from.statusIfPresent(of: name) != nil {
            try from.rename(name, to: live.descriptor, name)
        }
        try from.removeIfPresent(journalName)
        _ = try live.descriptor.removeTree(directoryName)
    }
}
