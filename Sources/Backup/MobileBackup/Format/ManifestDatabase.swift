import Crypto
import FileSystem
import Foundation
import GRDB

/// One Files row as stored: the columns, with the MBFile archive still encoded.
struct ManifestRow: Sendable {
    var fileID, domain, relativePath: String
    var flags: Int
    var file: Data?
}

/// `Manifest.db`, the SQLite index of a backup, with exactly the schema
/// iOS writes (Files and Properties tables and their three indexes).
enum ManifestDatabase {
    static let schema = [
        "CREATE TABLE Files (fileID TEXT PRIMARY KEY, domain TEXT, relativePath TEXT, flags INTEGER, file BLOB)",
        "CREATE INDEX FilesDomainIdx ON Files(domain)",
        "CREATE INDEX FilesRelativePathIdx ON Files(relativePath)",
        "CREATE INDEX FilesFlagsIdx ON Files(flags)",
        "CREATE TABLE Properties (key TEXT PRIMARY KEY, value BLOB)",
    ]

    /// A connection without SQLite's own syncs and journal: durability comes
    /// from the writer's flush before it commits the backup, and a database
    /// written here is never live until then.
    private static func unjournaledQueue(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = OFF")
            try db.execute(sql: "PRAGMA journal_mode = OFF")
        }
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// Creates a new database at `path` holding `rows`, in one transaction.
    /// Durability comes from the writer's single flush before it commits the
    /// backup, so SQLite's own syncs are turned off here.
    static func create(at path: String, rows: [ManifestRow]) throws {
        do {
            let queue = try unjournaledQueue(path)
            try queue.write { db in
                for statement in schema { try db.execute(sql: statement) }
                let insert = try db.makeStatement(sql: "INSERT INTO Files (fileID, domain, relativePath, flags, file) VALUES (?, ?, ?, ?, ?)")
                for row in rows {
                    try insert.execute(arguments: [row.fileID, row.domain, row.relativePath, row.flags, row.file])
                }
            }
            try queue.close()
        } catch {
            throw writeFailure(error, path, "cannot write Manifest.db")
        }
    }

    /// Changes the database at `path` in one transaction: removes the rows
    /// `deleting` names, then writes `rows` over any with the same fileID.
    /// Used on a copy of the previous backup's database, so an incremental
    /// run touches only the rows that changed.
    static func update(at path: String, rows: [ManifestRow], deleting: [String]) throws {
        do {
            let queue = try unjournaledQueue(path)
            try queue.write { db in
                let delete = try db.makeStatement(sql: "DELETE FROM Files WHERE fileID = ?")
                for fileID in deleting { try delete.execute(arguments: [fileID]) }
                let insert = try db.makeStatement(
                    sql: "INSERT OR REPLACE INTO Files (fileID, domain, relativePath, flags, file) VALUES (?, ?, ?, ?, ?)")
                for row in rows {
                    try insert.execute(arguments: [row.fileID, row.domain, row.relativePath, row.flags, row.file])
                }
            }
            try queue.close()
        } catch {
            throw writeFailure(error, path, "cannot update Manifest.db")
        }
    }

    /// A failed write of the database at `path`, keeping SQLite's error as
    /// the cause: a full disk (`SQLITE_FULL`) is
    /// ``MobileBackupErrorCode/insufficientSpace``, anything else
    /// ``MobileBackupErrorCode/ioFailed``.
    private static func writeFailure(_ error: any Error, _ path: String, _ action: String) -> MobileBackupError {
        let full = (error as? DatabaseError)?.resultCode == .SQLITE_FULL
        return MobileBackupError(full ? .insufficientSpace : .ioFailed, path: path, action).caused(by: error)
    }

    /// Every Files row of the database at `path`, read-only.
    /// Without `includingArchives`, the rows' `file` column is not read (nil).
    /// Errors name `displayPath`: the backup's own Manifest.db, not the
    /// private copy (decrypted, or copied out) that SQLite opened.
    static func rows(at path: String, named displayPath: String? = nil, includingArchives: Bool = true) throws -> [ManifestRow] {
        let displayPath = displayPath ?? path
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in
                var rows: [ManifestRow] = []
                let columns = includingArchives ? "fileID, domain, relativePath, flags, file" : "fileID, domain, relativePath, flags"
                let cursor = try Row.fetchCursor(db, sql: "SELECT \(columns) FROM Files")
                while let row = try cursor.next() {
                    guard let fileID: String = row[0], let domain: String = row[1] else {
                        throw MobileBackupError(.malformedManifest, path: displayPath, "a Files row has no fileID or domain")
                    }
                    let relativePath: String = row[2] ?? ""
                    let flags: Int = row[3] ?? 0
                    rows.append(ManifestRow(fileID: fileID, domain: domain, relativePath: relativePath, flags: flags,
                                            file: includingArchives ? row[4] : nil))
                }
                return rows
            }
        } catch let error as MobileBackupError {
            throw error
        } catch {
            throw MobileBackupError(.malformedManifest, path: displayPath, "cannot read Manifest.db").caused(by: error)
        }
    }

    /// Decrypts an encrypted Manifest.db (AES-256-CBC, zero IV, PKCS#7),
    /// for the caller to write where SQLite can open it. `path` is for messages.
    static func decrypt(_ encrypted: Data, path: String, key: SymmetricKey) throws -> Data {
        do {
            return try CBCStream.decrypt(encrypted, key: key)
        } catch {
            throw MobileBackupError(.malformedManifest, path: path, "Manifest.db does not decrypt with its ManifestKey")
        }
    }

    /// Decrypts the encrypted Manifest.db of the backup held by `directory`
    /// into `scratch` (a private 0700 directory; the file is 0600) and
    /// returns the copy's path, for SQLite to open.
    static func decryptedCopy(in directory: DirectoryHandle, key: SymmetricKey, into scratch: PrivateScratch) throws -> String {
        let path = directory.path + "/Manifest.db"
        guard let encrypted = try directory.readBackupFile("Manifest.db") else {
            throw MobileBackupError(.notABackup, path: path, "cannot read Manifest.db: it is missing")
        }
        try scratch.write(try decrypt(encrypted, path: path, key: key), "Manifest.db")
        return scratch.path("Manifest.db")
    }

    /// The 16 bytes every SQLite 3 database starts with.
    static let sqliteHeader = Data("SQLite format 3\0".utf8)

    /// Whether the held backup's Manifest.db starts as a plain SQLite
    /// database does (an encrypted one is AES ciphertext from byte 0).
    static func isPlainSQLite(in directory: DirectoryHandle) throws -> Bool {
        try backupIO(directory.path + "/Manifest.db") { () throws(FileSystemError) in
            let file = try directory.descriptor.open("Manifest.db", .readOnly, options: [.noFollow, .nonBlocking])
            defer { file.closeQuietly() }
            return try file.read(count: sqliteHeader.count, at: 0) == sqliteHeader
        }
    }
}
