import FileSystem
import Foundation
import PropertyList
import SystemPackage

/// The complete backup a new one may build on: its rows (MBFile archives,
/// reused verbatim for unchanged files), its fingerprints and, when it was
/// encrypted with the same password, its unlocked keybag.
struct PreviousBackup: Sendable {
    /// The live backup, held open.
    var directory: DirectoryHandle
    /// Its payload buckets (read only: unchanged payloads are linked or checked there).
    var buckets: PayloadBuckets
    /// fileID → MBFile archive (empty when loaded for an in-place run, which does not need them).
    var rows: [String: Data]
    /// The fileIDs of its regular files (the rows with a payload).
    var fileRows: Set<String>
    var fingerprints: [String: FileFingerprint]
    var encryption: BackupEncryption?

    /// The previous backup held by `directory`, or nil when there is none
    /// worth building on: never finished, written by another host (no
    /// fingerprints), encrypted differently from the new one, or unreadable.
    /// Then the new backup copies everything, which is always safe.
    ///
    /// With `copyingDatabaseInto`, a writable plaintext copy of its
    /// Manifest.db is made there, named ``IncrementalCommit/plainDatabaseName``
    /// (in-place runs update it).
    static func load(directory: DirectoryHandle, password: String?, copyingDatabaseInto copy: DirectoryHandle? = nil) -> PreviousBackup? {
        let live = directory.descriptor
        do {
            guard let status = try BackupPropertyLists.read("Status.plist", in: directory),
                  status["SnapshotState"]?.stringValue == "finished",
                  let indexData = try live.readFileIfPresent(FingerprintIndex.fileName)
            else { return nil }
            let fingerprints = FingerprintIndex.decode(indexData)
            guard !fingerprints.isEmpty,
                  let manifest = try BackupPropertyLists.read("Manifest.plist", in: directory) else { return nil }
            let isEncrypted = manifest["IsEncrypted"]?.boolValue ?? false
            guard isEncrypted == (password != nil) else { return nil }
            var encryption: BackupEncryption?
            var databasePath = directory.path + "/Manifest.db"
            // A decrypted copy lives in a private directory, removed on return.
            var scratch: PrivateScratch?
            defer { withExtendedLifetime(scratch) {} }
            let copyName = IncrementalCommit.plainDatabaseName
            if let password {
                guard let bagData = manifest["BackupKeyBag"]?.dataValue,
                      let manifestKey = manifest["ManifestKey"]?.dataValue else { return nil }
                let bag = try BackupKeyBag.parse(bagData)
                let unlocked = BackupEncryption(keyBag: bag, classKeys: try bag.unlock(password: password))
                let key = try unlocked.unwrap(blob: manifestKey)
                if let copy {
                    guard let encrypted = try live.readFileIfPresent("Manifest.db") else { return nil }
                    try copy.descriptor.createFile(copyName, try ManifestDatabase.decrypt(encrypted, path: databasePath, key: key),
                                                   permissions: 0o600)
                    databasePath = copy.path + "/" + copyName
                } else {
                    let privateCopy = try PrivateScratch()
                    scratch = privateCopy
                    databasePath = try ManifestDatabase.decryptedCopy(in: directory, key: key, into: privateCopy)
                }
                encryption = unlocked
            } else if let copy {
                try live.copyFile("Manifest.db", to: copy.descriptor, copyName)
                databasePath = copy.path + "/" + copyName
            }
            // In place, unchanged rows stay in the copied database: their archives are not needed.
            var rows: [String: Data] = [:]
            var fileRows = Set<String>()
            for row in try ManifestDatabase.rows(at: databasePath, includingArchives: copy == nil) {
                rows[row.fileID] = row.file ?? Data()
                if row.flags == BackupFileKind.file.rawValue { fileRows.insert(row.fileID) }
            }
            return PreviousBackup(directory: directory, buckets: PayloadBuckets(directory, creates: false), rows: rows,
                                  fileRows: fileRows, fingerprints: fingerprints, encryption: encryption)
        } catch {
            return nil
        }
    }
}
