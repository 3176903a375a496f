import Foundation
import PropertyList

/// The complete backup a new one may build on: its rows (MBFile archives,
/// reused verbatim for unchanged files), its fingerprints and, when it was
/// encrypted with the same password, its unlocked keybag.
struct PreviousBackup: Sendable {
    var directory: String
    /// fileID → MBFile archive (empty when loaded for an in-place run, which does not need them).
    var rows: [String: Data]
    /// The fileIDs of its regular files (the rows with a payload).
    var fileRows: Set<String>
    /// A writable plaintext copy of its Manifest.db, when asked for (in-place runs update it).
    var databaseCopy: String?
    var fingerprints: [String: FileFingerprint]
    var encryption: BackupEncryption?

    /// The previous backup at `directory`, or nil when there is none worth
    /// building on: never finished, written by another host (no
    /// fingerprints), encrypted differently from the new one, or unreadable.
    /// Then the new backup copies everything, which is always safe.
    static func load(directory: String, password: String?, copyingDatabaseTo copyPath: String? = nil) -> PreviousBackup? {
        do {
            guard let status = try BackupPropertyLists.read(directory + "/Status.plist"),
                  status["SnapshotState"]?.stringValue == "finished",
                  let indexData = FileManager.default.contents(atPath: directory + "/" + FingerprintIndex.fileName)
            else { return nil }
            let fingerprints = FingerprintIndex.decode(indexData)
            guard !fingerprints.isEmpty,
                  let manifest = try BackupPropertyLists.read(directory + "/Manifest.plist") else { return nil }
            let isEncrypted = manifest["IsEncrypted"]?.boolValue ?? false
            guard isEncrypted == (password != nil) else { return nil }
            var encryption: BackupEncryption?
            var databasePath = directory + "/Manifest.db"
            var temporary: String?
            defer { if let temporary, temporary != copyPath { try? Platform.removeFile(temporary) } }
            if let password {
                guard let bagData = manifest["BackupKeyBag"]?.dataValue,
                      let manifestKey = manifest["ManifestKey"]?.dataValue else { return nil }
                let bag = try BackupKeyBag.parse(bagData)
                let unlocked = BackupEncryption(keyBag: bag, classKeys: try bag.unlock(password: password))
                let path = try ManifestDatabase.decryptedCopy(of: databasePath, key: try unlocked.unwrap(blob: manifestKey), to: copyPath)
                temporary = path
                databasePath = path
                encryption = unlocked
            }
            if let copyPath, temporary == nil { try Platform.copyFile(databasePath, copyPath) }
            // In place, unchanged rows stay in the copied database: their archives are not needed.
            var rows: [String: Data] = [:]
            var fileRows = Set<String>()
            for row in try ManifestDatabase.rows(at: databasePath, includingArchives: copyPath == nil) {
                rows[row.fileID] = row.file ?? Data()
                if row.flags == BackupFileKind.file.rawValue { fileRows.insert(row.fileID) }
            }
            return PreviousBackup(directory: directory, rows: rows, fileRows: fileRows, databaseCopy: copyPath,
                                  fingerprints: fingerprints, encryption: encryption)
        } catch {
            return nil
        }
    }
}
