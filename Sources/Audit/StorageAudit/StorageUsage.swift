import FileSystem

/// What one part of an app's storage costs: the disk, the backup, and what
/// a purge or an update does with it. Every hard-linked file is counted
/// once per audit, where the walk first met it.
public struct StorageUsage: Sendable, Hashable, Codable {
    /// Bytes of disk blocks (`st_blocks` × 512), as `du -B1` counts them:
    /// a sparse file counts only its allocated blocks.
    public var allocatedBytes: UInt64 = 0
    /// Apparent sizes (`st_size`), as `du -B1 --apparent-size` counts them
    /// (directories and links included).
    public var apparentBytes: UInt64 = 0
    /// Files, links and other non-directories.
    public var files: Int = 0
    /// Directories.
    public var directories: Int = 0
    /// Apparent bytes of the files and links a backup takes
    /// (`ContainerEntryClassifier`, as the backup decides): what a backup
    /// stores and uploads.
    public var backupBytes: UInt64 = 0
    /// Allocated bytes a purge would free: what lies below `Library/Caches`
    /// and `tmp` (the directories themselves stay).
    public var purgeableBytes: UInt64 = 0
    /// Allocated bytes an update keeps (the rules table's
    /// `keptAcrossUpdate`: everything but the bundle and `tmp`).
    public var keptByUpdateBytes: UInt64 = 0

    public init() {}

    /// Counts one item the walk met: its blocks and size, and each figure
    /// its rules give it (the backup counts a file's size, never a
    /// directory's).
    mutating func count(_ status: FileStatus, backedUp: Bool, purgeable: Bool, keptByUpdate: Bool) {
        allocatedBytes += status.allocatedBytes
        apparentBytes += status.size
        if status.isDirectory { directories += 1 } else { files += 1 }
        if backedUp && !status.isDirectory { backupBytes += status.size }
        if purgeable { purgeableBytes += status.allocatedBytes }
        if keptByUpdate { keptByUpdateBytes += status.allocatedBytes }
    }

    /// Adds `other` to this usage.
    public mutating func add(_ other: StorageUsage) {
        allocatedBytes += other.allocatedBytes
        apparentBytes += other.apparentBytes
        files += other.files
        directories += other.directories
        backupBytes += other.backupBytes
        purgeableBytes += other.purgeableBytes
        keptByUpdateBytes += other.keptByUpdateBytes
    }
}

/// One category's usage, for the list an app's audit holds.
public struct CategoryUsage: Sendable, Hashable, Codable {
    public var category: StorageCategory
    public var usage: StorageUsage

    public init(category: StorageCategory, usage: StorageUsage) {
        self.category = category
        self.usage = usage
    }
}
