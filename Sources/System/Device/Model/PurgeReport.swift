/// What a purge removed.
public struct PurgeReport: Sendable, Hashable, Codable {
    /// Per app that was purged: what went from its Caches and tmp.
    public struct AppPurge: Sendable, Hashable, Codable {
        /// The app.
        public var bundleID: String
        /// Files (and links) removed.
        public var files: Int
        /// Directories removed (Caches and tmp themselves stay).
        public var directories: Int
        /// Disk space released, in bytes (allocated blocks).
        public var bytes: UInt64
    }

    /// The apps purged, in bundle-identifier order.
    public var apps: [AppPurge]
    /// Apps left alone because they were running.
    public var skippedRunning: [String]
    /// The app groups whose shared containers were purged, in identifier
    /// order (`bundleID` holds the group's identifier).
    public var groups: [AppPurge] = []
    /// Groups left alone because one of their apps was running.
    public var skippedRunningGroups: [String] = []

    public init(apps: [AppPurge], skippedRunning: [String], groups: [AppPurge] = [], skippedRunningGroups: [String] = []) {
        self.apps = apps
        self.skippedRunning = skippedRunning
        self.groups = groups
        self.skippedRunningGroups = skippedRunningGroups
    }

    /// Files removed in all apps and groups.
    public var files: Int { (apps + groups).reduce(0) { $0 + $1.files } }
    /// Directories removed in all apps and groups.
    public var directories: Int { (apps + groups).reduce(0) { $0 + $1.directories } }
    /// Bytes released in all apps and groups.
    public var bytes: UInt64 { (apps + groups).reduce(0) { $0 + $1.bytes } }
}

/// How far a purge has got, for a progress bar.
public struct PurgeProgress: Sendable, Hashable {
    /// Entries removed so far.
    public var removed: Int
    /// Entries to remove in all, when counted beforehand (else nil).
    public var total: Int?
    /// Bytes released so far.
    public var bytes: UInt64
    /// The app being purged.
    public var bundleID: String
}
