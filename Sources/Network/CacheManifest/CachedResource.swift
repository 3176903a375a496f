import Foundation
import GRDB

/// One file an app downloaded, as the manifest records it: where it came
/// from, what the server said of it, and what it was when written, so a
/// purge or a truncation can be noticed and the file fetched again.
public struct CachedResource: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "resource"

    /// The file, relative to the container root
    /// (`Library/Caches/maps/tile-1.png`). Relative, so the manifest stays
    /// true when the container moves (a restore to a new device).
    public var path: String
    /// The source URL.
    public var url: String
    /// The server's `ETag`, if it sent one.
    public var etag: String?
    /// The server's `Last-Modified`, if it sent one.
    public var lastModified: String?
    /// The size in bytes.
    public var size: Int64
    /// The SHA-256 of the content, lowercase hex.
    public var sha256: String
    /// When it was fetched (seconds since 1970).
    public var fetchedAt: Double
    /// When it was last used (seconds since 1970); eviction goes by it.
    public var lastUsedAt: Double
    /// Must be kept: it lives in Application Support with the
    /// do-not-back-up flag and is never evicted.
    public var pinned: Bool
    /// The inode and modification time the file had when recorded: the
    /// launch check compares them (with the size) instead of hashing.
    public var inode: Int64
    public var modifiedNanoseconds: Int64

    public init(path: String, url: String, etag: String? = nil, lastModified: String? = nil, size: Int64, sha256: String,
                fetchedAt: Double, lastUsedAt: Double? = nil, pinned: Bool = false, inode: Int64 = 0, modifiedNanoseconds: Int64 = 0) {
        self.path = path
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
        self.size = size
        self.sha256 = sha256
        self.fetchedAt = fetchedAt
        self.lastUsedAt = lastUsedAt ?? fetchedAt
        self.pinned = pinned
        self.inode = inode
        self.modifiedNanoseconds = modifiedNanoseconds
    }
}
