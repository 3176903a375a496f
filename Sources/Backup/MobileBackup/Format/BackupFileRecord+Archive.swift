import Foundation
import KeyedArchive
import PropertyList

/// The MBFile object as iOS archives it in a Files row: integers inline,
/// the path and link target as string objects, the wrapped key as an
/// `NSMutableData` object. Readers such as mvt take `$objects[1]` as the
/// MBFile dictionary, which holds because the root is archived first.
struct MBFileArchive: KeyedArchivable {
    static let archiveClass = KeyedArchiveClass("MBFile")

    var record: BackupFileRecord

    init(record: BackupFileRecord) {
        self.record = record
    }

    func encode(with coder: KeyedArchiver) throws {
        coder.encodeInt64(record.lastModified, forKey: "LastModified")
        coder.encodeInt64(record.flags, forKey: "Flags")
        coder.encodeInt64(record.groupID, forKey: "GroupID")
        coder.encodeInt64(record.lastStatusChange, forKey: "LastStatusChange")
        try coder.encode(record.relativePath, forKey: "RelativePath")
        coder.encodeInt64(record.birth, forKey: "Birth")
        if let key = record.encryptionKey {
            try coder.encode(MutableDataObject(bytes: key), forKey: "EncryptionKey")
        }
        if let target = record.target {
            try coder.encode(target, forKey: "Target")
        }
        if let digest = record.digest {
            try coder.encode(digest, forKey: "Digest")
        }
        if let attributes = record.extendedAttributes {
            coder.encodeBytes(attributes, forKey: "ExtendedAttributes")
        }
        coder.encodeInt64(record.size, forKey: "Size")
        coder.encodeInt64(Int64(record.mode), forKey: "Mode")
        coder.encodeInt64(record.userID, forKey: "UserID")
        coder.encodeInt64(Int64(bitPattern: record.inode), forKey: "InodeNumber")
        coder.encodeInt64(Int64(record.protectionClass.rawValue), forKey: "ProtectionClass")
    }

    init(from coder: KeyedUnarchiver) throws {
        let mode = UInt32(truncatingIfNeeded: try coder.decodeInt64(forKey: "Mode"))
        let relativePath = try coder.decodeIfPresent(String.self, forKey: "RelativePath") ?? ""
        record = BackupFileRecord(
            domain: "", relativePath: relativePath, kind: BackupFileKind(mode: mode) ?? .file,
            size: try coder.decodeInt64(forKey: "Size"), mode: mode,
            birth: try coder.decodeInt64(forKey: "Birth"),
            lastModified: try coder.decodeInt64(forKey: "LastModified"),
            lastStatusChange: try coder.decodeInt64(forKey: "LastStatusChange"),
            inode: UInt64(bitPattern: try coder.decodeInt64(forKey: "InodeNumber")),
            userID: try coder.decodeInt64(forKey: "UserID"), groupID: try coder.decodeInt64(forKey: "GroupID"),
            flags: try coder.decodeInt64(forKey: "Flags"),
            protectionClass: BackupProtectionClass(rawValue: try coder.decodeInteger(forKey: "ProtectionClass")),
            target: try coder.decodeIfPresent(String.self, forKey: "Target"),
            digest: try Self.decodeData(coder, "Digest"),
            encryptionKey: try coder.decodeIfPresent(MutableDataObject.self, forKey: "EncryptionKey")?.bytes,
            extendedAttributes: try Self.decodeData(coder, "ExtendedAttributes"))
    }

    /// Data stored either inline in the object or as a referenced (NS)Data object.
    private static func decodeData(_ coder: KeyedUnarchiver, _ key: String) throws -> Data? {
        guard let stored = coder.decodePropertyList(forKey: key) else { return nil }
        if case .data(let bytes) = stored { return bytes }
        return try coder.decodeIfPresent(Data.self, forKey: key)
    }
}

/// An `NSMutableData` object (`{NS.data: …}`), the form iOS gives
/// `EncryptionKey` and the one iphone_backup_decrypt and pyiosbackup look up.
struct MutableDataObject: KeyedArchivable {
    static let archiveClass = KeyedArchiveClass(name: "NSMutableData", classes: ["NSMutableData", "NSData", "NSObject"])
    static var keyedArchiveClassNames: [String] { ["NSMutableData", "NSData"] }

    var bytes: Data

    init(bytes: Data) {
        self.bytes = bytes
    }

    func encode(with coder: KeyedArchiver) throws {
        coder.encodeBytes(bytes, forKey: "NS.data")
    }

    init(from coder: KeyedUnarchiver) throws {
        guard let bytes = try coder.decodeBytes(forKey: "NS.data") else {
            throw KeyedArchiveError(.keyNotFound, key: "NS.data", "the data object has no NS.data")
        }
        self.bytes = bytes
    }
}

extension BackupFileRecord {
    /// The MBFile keyed archive stored in the Files row's `file` column.
    func archived() throws -> Data {
        try KeyedArchiver.archivedData(withRootObject: MBFileArchive(record: self))
    }

    /// Reads a Files row back; the row's own columns give the domain, path
    /// and kind, the archive the rest.
    static func unarchive(_ blob: Data, domain: String, relativePath: String, flags: Int) throws -> BackupFileRecord {
        let archive: MBFileArchive
        do {
            archive = try KeyedUnarchiver.unarchive(MBFileArchive.self, from: blob)
        } catch {
            throw MobileBackupError(.malformedRecord, domain: domain, relativePath: relativePath,
                                    "the row's MBFile archive cannot be read").caused(by: error)
        }
        var record = archive.record
        record.domain = domain
        record.relativePath = relativePath
        if let kind = BackupFileKind(rawValue: flags) { record.kind = kind }
        return record
    }
}
