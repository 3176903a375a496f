import Foundation

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
///   backup or the next ``BackupReader`` that opens the directory.
/// Readers ignore the extra directory, as they ignore every unknown name.
enum IncrementalCommit {
    static let directoryName = "Sandbox.incoming"
    static let journalName = "Sandbox.commit"
    /// The plaintext database an in-place run updates before it is encrypted (or renamed).
    static let plainDatabaseName = ".Manifest.plain.db"
    /// Moved in after the payloads, `Status.plist` last: it marks the snapshot finished.
    static let metadataFiles = ["Manifest.db", FingerprintIndex.fileName, "Info.plist", "Manifest.plist", "Status.plist"]

    static func incoming(_ live: String) -> String { live + "/" + directoryName }

    /// Seals the incoming run (journal written and flushed) and applies it.
    /// (`stopsBeforeApplying` is a testing hook: a crash right after the seal.)
    static func commit(live: String, removedPayloads: [String], flushes: Bool, stopsBeforeApplying: Bool = false) throws {
        let incoming = incoming(live)
        let temporary = incoming + "/" + journalName + ".tmp"
        try Platform.removeFile(temporary)
        let descriptor = try Platform.createForWriting(temporary)
        let text = Data(removedPayloads.joined(separator: "\n").utf8)
        do {
            try text.withUnsafeBytes { try Platform.write(descriptor, $0, path: temporary) }
        } catch {
            Platform.close(descriptor)
            throw error
        }
        Platform.close(descriptor)
        if flushes { try Platform.syncPath(temporary) }
        try Platform.rename(temporary, incoming + "/" + journalName)
        // The payloads were flushed before; only the journal's name is left to make durable.
        if flushes { try Platform.syncPath(incoming) }
        if stopsBeforeApplying {
            throw MobileBackupError(.interrupted, path: incoming, "the backup was interrupted after its commit was sealed")
        }
        try apply(live: live)
    }

    /// Finishes a sealed run, or discards an unsealed one; nothing to do when there is none.
    static func recover(live: String) throws {
        let incoming = incoming(live)
        guard try Platform.status(incoming) != nil else { return }
        if try Platform.status(incoming + "/" + journalName) != nil {
            try apply(live: live)
        } else {
            try Platform.removeTree(incoming)
        }
    }

    private static func apply(live: String) throws {
        let incoming = incoming(live)
        let journalPath = incoming + "/" + journalName
        let removed = (FileManager.default.contents(atPath: journalPath)).map {
            String(decoding: $0, as: UTF8.self).split(separator: "\n").map(String.init)
        } ?? []
        var buckets = Set<String>()
        for name in try Platform.directoryEntries(incoming) where BackupFileID.isFileID(name) {
            let bucket = String(name.prefix(2))
            if buckets.insert(bucket).inserted { try Platform.makeDirectory(live + "/" + bucket) }
            try Platform.rename(incoming + "/" + name, live + "/" + BackupFileID.payloadPath(name))
        }
        for fileID in removed where BackupFileID.isFileID(fileID) {
            try Platform.removeFile(live + "/" + BackupFileID.payloadPath(fileID))
        }
        for name in metadataFiles where try Platform.status(incoming + "/" + name) != nil {
            try Platform.rename(incoming + "/" + name, live + "/" + name)
        }
        try Platform.removeFile(journalPath)
        try Platform.removeTree(incoming)
    }
}
