import Foundation

/// What a backup records about one file, directory or symbolic link: a
/// Files row of `Manifest.db` (domain, path, flags) and the MBFile object
/// archived in its `file` column (size, mode, times, inode, protection class …).
public struct BackupFileRecord: Sendable, Hashable {
    /// The row's domain, such as `AppDomain-com.example.notes`.
    public var domain: String
    /// The path inside the domain (`""` for the domain's root directory).
    public var relativePath: String
    /// Regular file, directory or symbolic link (the row's `flags`).
    public var kind: BackupFileKind
    /// The file's size in bytes (0 for directories and links).
    public var size: Int64
    /// The full `st_mode`, type bits included (0o100644, 0o40755 …).
    public var mode: UInt32
    /// Creation, modification and status-change times, in whole seconds since 1970.
    public var birth: Int64
    /// See ``birth``.
    public var lastModified: Int64
    /// See ``birth``.
    public var lastStatusChange: Int64
    /// The inode number on the device.
    public var inode: UInt64
    /// The owner and group IDs (501, `mobile`, for app data).
    public var userID: Int64
    /// See ``userID``.
    public var groupID: Int64
    /// BSD file flags (`st_flags`), usually 0.
    public var flags: Int64
    /// The Data Protection class (0 for directories and links).
    public var protectionClass: BackupProtectionClass
    /// A symbolic link's target.
    public var target: String?
    /// SHA-1 of the file's contents, when recorded.
    public var digest: Data?
    /// In an encrypted backup: the 44-byte key blob (little-endian class
    /// number, then the RFC 3394-wrapped 32-byte file key).
    public var encryptionKey: Data?
    /// The extended attributes, as the raw binary property list iOS stores.
    public var extendedAttributes: Data?

    /// Creates a record.
    public init(domain: String, relativePath: String, kind: BackupFileKind, size: Int64 = 0, mode: UInt32,
                birth: Int64 = 0, lastModified: Int64 = 0, lastStatusChange: Int64 = 0, inode: UInt64 = 0,
                userID: Int64 = 501, groupID: Int64 = 501, flags: Int64 = 0,
                protectionClass: BackupProtectionClass = .unspecified, target: String? = nil, digest: Data? = nil,
                encryptionKey: Data? = nil, extendedAttributes: Data? = nil) {
        self.domain = domain
        self.relativePath = relativePath
        self.kind = kind
        self.size = size
        self.mode = mode
        self.birth = birth
        self.lastModified = lastModified
        self.lastStatusChange = lastStatusChange
        self.inode = inode
        self.userID = userID
        self.groupID = groupID
        self.flags = flags
        self.protectionClass = protectionClass
        self.target = target
        self.digest = digest
        self.encryptionKey = encryptionKey
        self.extendedAttributes = extendedAttributes
    }

    /// The row's fileID: the hex SHA-1 of `domain-relativePath`, which also
    /// names the payload file.
    public var fileID: String { BackupFileID.make(domain: domain, relativePath: relativePath) }
}

/// The kind of a Files row, stored in its `flags` column.
public enum BackupFileKind: Int, Sendable, Hashable, CaseIterable {
    /// A regular file, the only kind with a payload (`flags` 1).
    case file = 1
    /// A directory (`flags` 2).
    case directory = 2
    /// A symbolic link (`flags` 4).
    case symbolicLink = 4

    /// The kind the type bits of `mode` give, or nil for other file types.
    public init?(mode: UInt32) {
        switch mode & 0o170000 {
        case 0o100000: self = .file
        case 0o040000: self = .directory
        case 0o120000: self = .symbolicLink
        default: return nil
        }
    }
}
