/// What one app costs: its storage by category, its keychain items, its
/// cache manifest and stores, the findings against the guidelines, and its
/// share of the iCloud backup.
public struct AppStorageAudit: Sendable, Hashable, Codable {
    /// The app's bundle identifier.
    public var bundleID: String
    /// Every category, in ``StorageCategory`` order (empty ones included).
    public var categories: [CategoryUsage]
    /// All categories together.
    public var total: StorageUsage
    /// Keychain items in the app's access groups, when a keychain was given.
    public var keychainItems: Int?
    /// The cache manifest, when the app has one.
    public var cacheManifest: CacheManifestSummary?
    /// SQLite stores (Core Data's and others) outside the manifest, with
    /// their `-wal` and `-shm`.
    public var stores: [StoreFile]
    /// Findings, by rule and path.
    public var findings: [StorageFinding]
    /// Checks the audit could not make, and why.
    public var notes: [String]

    /// The usage of one category.
    public func usage(of category: StorageCategory) -> StorageUsage {
        categories.first { $0.category == category }?.usage ?? StorageUsage()
    }

    /// App size: the bundle, allocated bytes.
    public var appBytes: UInt64 { usage(of: .bundle).allocatedBytes }
    /// Documents & data: everything but the bundle, allocated bytes.
    public var dataBytes: UInt64 { total.allocatedBytes - appBytes }
}

/// An app's cache manifest: present, how big, how many entries.
public struct CacheManifestSummary: Sendable, Hashable, Codable {
    /// The database, relative to the container root.
    public var path: String
    /// Allocated bytes of the database with its `-wal` and `-shm`.
    public var bytes: UInt64
    /// Entries recorded.
    public var entries: Int
}

/// A SQLite store found in the container.
public struct StoreFile: Sendable, Hashable, Codable {
    /// The database, relative to the container root.
    public var path: String
    /// Allocated bytes of the database with its `-wal` and `-shm`.
    public var bytes: UInt64
}
