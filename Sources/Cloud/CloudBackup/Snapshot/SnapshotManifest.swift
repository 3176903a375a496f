import CloudProtocol

/// What a snapshot holds, stored encrypted as its manifest chunk: the
/// device it came from and every file of its MobileBackup directory, each
/// as its chunks in order.
public struct SnapshotManifest: Codable, Sendable, Hashable {
    /// The manifest's format.
    public var format: Int = 1
    public var udid: String
    public var deviceName: String
    /// Seconds since 1970.
    public var created: Int64
    /// Apps the snapshot holds.
    public var apps: [String]
    public var files: [File]

    /// One file of the backup directory.
    public struct File: Codable, Sendable, Hashable {
        /// The path in the backup directory (`Manifest.db`, `ab/ab12…`).
        public var path: String
        public var size: Int64
        public var chunks: [ChunkID]
        /// The modification time seen when it was chunked, in nanoseconds
        /// (so an unchanged file is not read again next time).
        public var modified: Int64
    }

    /// Bytes of file contents.
    public var bytes: Int64 { files.reduce(0) { $0 + $1.size } }

    /// Every chunk, each once.
    public var chunkIDs: [ChunkID] { Array(Set(files.flatMap(\.chunks))).sorted() }
}
