/// `POST /v1/sessions`: an upload session, which holds the chunks it has
/// named against garbage collection until it commits or expires.
public struct SessionOpened: Codable, Sendable, Hashable {
    public var sessionID: Int64
    /// Seconds the session lives without activity.
    public var expiresInSeconds: Int64

    public init(sessionID: Int64, expiresInSeconds: Int64) {
        self.sessionID = sessionID
        self.expiresInSeconds = expiresInSeconds
    }
}

/// `POST /v1/sessions/{id}/known`: which of these chunks must be sent.
/// Chunks the account already stores are held for the session, so a retry
/// never sends them again and garbage collection cannot take them.
public struct KnownChunksRequest: Codable, Sendable, Hashable {
    public var chunks: [ChunkID]
    public init(chunks: [ChunkID]) { self.chunks = chunks }
}

/// The answer: the chunks the service does not have.
public struct KnownChunksResponse: Codable, Sendable, Hashable {
    public var missing: [ChunkID]
    public init(missing: [ChunkID]) { self.missing = missing }
}

/// `PUT /v1/sessions/{id}/chunks/{chunkID}`: the chunk is stored.
public struct ChunkStored: Codable, Sendable, Hashable {
    public var chunk: ChunkID
    /// Bytes stored (the encrypted size).
    public var bytes: Int64
    /// True when the account already had it (another device sent it).
    public var deduplicated: Bool
    /// The account's usage after the upload.
    public var usedBytes: Int64

    public init(chunk: ChunkID, bytes: Int64, deduplicated: Bool, usedBytes: Int64) {
        self.chunk = chunk
        self.bytes = bytes
        self.deduplicated = deduplicated
        self.usedBytes = usedBytes
    }
}

/// `POST /v1/sessions/{id}/commit`: makes the snapshot the device's
/// current one, atomically, once every chunk it names is stored.
public struct CommitRequest: Codable, Sendable, Hashable {
    /// The encrypted manifest (the list of files and their chunks).
    public var manifest: ChunkID
    /// Every chunk the snapshot references, the manifest included.
    public var chunks: [ChunkID]
    /// Files in the snapshot.
    public var files: Int64
    /// Bytes of file contents in the snapshot (before encryption).
    public var bytes: Int64

    public init(manifest: ChunkID, chunks: [ChunkID], files: Int64, bytes: Int64) {
        self.manifest = manifest
        self.chunks = chunks
        self.files = files
        self.bytes = bytes
    }
}

/// A committed snapshot.
public struct SnapshotSummary: Codable, Sendable, Hashable {
    public var snapshotID: Int64
    public var deviceID: Int64
    /// Seconds since 1970.
    public var created: Int64
    public var files: Int64
    public var bytes: Int64
    public var chunkCount: Int64
    /// The manifest chunk.
    public var manifest: ChunkID

    public init(snapshotID: Int64, deviceID: Int64, created: Int64, files: Int64, bytes: Int64, chunkCount: Int64, manifest: ChunkID) {
        self.snapshotID = snapshotID
        self.deviceID = deviceID
        self.created = created
        self.files = files
        self.bytes = bytes
        self.chunkCount = chunkCount
        self.manifest = manifest
    }
}

/// `GET /v1/snapshots`.
public struct SnapshotList: Codable, Sendable, Hashable {
    public var snapshots: [SnapshotSummary]
    public init(snapshots: [SnapshotSummary]) { self.snapshots = snapshots }
}

/// `GET /v1/snapshots/{id}`: a snapshot and every chunk it references.
public struct SnapshotDetail: Codable, Sendable, Hashable {
    public var snapshot: SnapshotSummary
    public var chunks: [ChunkID]
    public init(snapshot: SnapshotSummary, chunks: [ChunkID]) {
        self.snapshot = snapshot
        self.chunks = chunks
    }
}

/// `POST /v1/admin/gc`: what a garbage collection freed.
public struct GarbageCollectionReport: Codable, Sendable, Hashable {
    public var chunksFreed: Int64
    public var bytesFreed: Int64
    public var snapshotsRetired: Int64
    public var sessionsExpired: Int64
    /// Objects in the chunk store that no ledger row names (a collection
    /// killed between its commit and its deletes), removed.
    public var orphansRemoved: Int64
    /// Temporary files of writes that never finished (a killed upload), removed.
    public var temporariesRemoved: Int64

    public init(chunksFreed: Int64 = 0, bytesFreed: Int64 = 0, snapshotsRetired: Int64 = 0, sessionsExpired: Int64 = 0,
                orphansRemoved: Int64 = 0, temporariesRemoved: Int64 = 0) {
        self.chunksFreed = chunksFreed
        self.bytesFreed = bytesFreed
        self.snapshotsRetired = snapshotsRetired
        self.sessionsExpired = sessionsExpired
        self.orphansRemoved = orphansRemoved
        self.temporariesRemoved = temporariesRemoved
    }
}
