/// A recorded file that is not as the manifest says.
public struct CacheProblem: Sendable, Equatable, Codable {
    /// Why the file needs fetching again.
    public enum Reason: String, Sendable, Equatable, Codable {
        /// Not on disk: purged with Caches, or removed.
        case missing
        /// Shorter or longer than recorded.
        case truncated
        /// Replaced or rewritten since it was recorded (inode or time
        /// differ); its content is checked by hashing before it is trusted.
        case changed
        /// Its content's SHA-256 differs from the recorded one.
        case corrupt
        /// Something else stands at its path (a directory, a link, a FIFO).
        case notAFile
        /// The manifest's row itself is damaged (a column of the wrong type
        /// or missing): it is reported with its row id and skipped.
        case malformedRow
        /// The row names a path the manifest may not own (outside Caches
        /// and the pinned directory, or with a `..`): never looked at.
        case invalidPath
        /// The file or its directory could not be looked at or read (a
        /// link where a directory should be, no permission): the others
        /// are checked all the same.
        case unreadable
    }

    public var path: String
    public var url: String
    public var reason: Reason
    /// Recorded and found sizes, when both are known.
    public var expectedSize: Int64
    public var foundSize: Int64?
    /// The manifest's row id, for a row that is itself at fault.
    public var row: Int64?
    /// What exactly is wrong, when the reason alone does not say it.
    public var detail: String?

    public init(path: String, url: String, reason: Reason, expectedSize: Int64, foundSize: Int64? = nil,
                row: Int64? = nil, detail: String? = nil) {
        self.path = path
        self.url = url
        self.reason = reason
        self.expectedSize = expectedSize
        self.foundSize = foundSize
        self.row = row
        self.detail = detail
    }
}

/// The result of checking the manifest against the disk.
public struct CacheCheckReport: Sendable, Equatable, Codable {
    /// Entries checked.
    public var checked: Int
    /// Files as recorded.
    public var healthy: Int
    /// Files to fetch again (or, for ``CacheProblem/Reason/changed``, to hash).
    public var problems: [CacheProblem]
    /// Bytes of the healthy files.
    public var healthyBytes: Int64

    public init(checked: Int = 0, healthy: Int = 0, problems: [CacheProblem] = [], healthyBytes: Int64 = 0) {
        self.checked = checked
        self.healthy = healthy
        self.problems = problems
        self.healthyBytes = healthyBytes
    }
}
