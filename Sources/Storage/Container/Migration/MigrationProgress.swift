import Foundation

/// How far a ``ContainerMigration`` has come. Reports of one job only grow:
/// a resumed job starts from what the earlier runs finished, and the last
/// report has ``completedItems`` equal to ``totalItems``.
public struct MigrationProgress: Sendable, Hashable, Codable {
    /// Items (files, links, directories) done: moved, or found already at
    /// the destination when resuming.
    public var completedItems: Int
    /// Items in the plan.
    public var totalItems: Int
    /// Bytes of the regular files done.
    public var completedBytes: UInt64
    /// Bytes of the regular files in the plan.
    public var totalBytes: UInt64
    /// The source-relative path of the last item done ("" before the first).
    public var lastPath: String

    /// Creates a report.
    public init(completedItems: Int, totalItems: Int, completedBytes: UInt64, totalBytes: UInt64, lastPath: String = "") {
        self.completedItems = completedItems
        self.totalItems = totalItems
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
        self.lastPath = lastPath
    }

    /// The share done, 0…1 (1 for an empty plan).
    public var fractionCompleted: Double {
        totalItems == 0 ? 1 : Double(completedItems) / Double(totalItems)
    }

    /// Whether every item is done.
    public var isFinished: Bool { completedItems == totalItems }
}

/// What a finished ``ContainerMigration`` did.
public struct MigrationReport: Sendable, Hashable, Codable {
    /// Where the items went.
    public var destination: MigrationDestination
    /// Items in the plan (files, links and directories).
    public var totalItems: Int
    /// Bytes of the regular files in the plan.
    public var totalBytes: UInt64
    /// Items this run moved (renamed into place, or a directory created).
    public var moved: Int
    /// Items a killed earlier run had already moved (found at the
    /// destination, not at the source).
    public var alreadyMoved: Int
    /// Items found at both places with the same content (only after an
    /// outside copy): the source was removed.
    public var duplicatesRemoved: Int
    /// Items of the plan found at neither place (deleted by someone else
    /// meanwhile): nothing to move.
    public var vanished: Int
    /// Emptied source directories removed.
    public var directoriesRemoved: Int
    /// Whether this run resumed an interrupted one.
    public var resumed: Bool
    /// Seconds this run took.
    public var duration: TimeInterval
}
