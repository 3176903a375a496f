import CloudProtocol

/// What one iCloud backup did.
public struct CloudBackupReport: Codable, Sendable, Hashable {
    public var snapshot: SnapshotSummary
    /// Files and bytes in the snapshot.
    public var files: Int64
    public var bytes: Int64
    /// Unique chunks the snapshot references (the manifest included).
    public var chunks: Int
    /// Chunks and encrypted bytes sent to the service.
    public var chunksSent: Int
    public var bytesSent: Int64
    /// Chunks the service already had (this or another device of the
    /// account sent them): not sent.
    public var chunksAlreadyStored: Int
    /// Files whose chunks were reused from the previous snapshot without
    /// being read again.
    public var filesUnchanged: Int
    /// Apps left out because their backup is turned off.
    public var appsOff: [String]
    /// The account's usage and quota after the backup.
    public var usedBytes: Int64
    public var quotaBytes: Int64
    public var seconds: Double
}

/// How far a backup or restore is, for progress bars.
public struct CloudProgress: Sendable, Hashable {
    public enum Phase: String, Sendable, Hashable {
        case staging, chunking, uploading, committing, downloading, restoring
    }

    public var phase: Phase
    public var done: Int64
    public var total: Int64
}
