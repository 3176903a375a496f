/// Where the service keeps encrypted chunks: one object per key.
///
/// Two implementations: ``DirectoryChunkStore`` (a local directory, the
/// embedded default) and `SwiftObjectStore` (an OpenStack Swift container,
/// the distributed store). The service keeps no other state of its own, so
/// any number of server processes share one chunk store and one ledger.
///
/// Keys are chosen by the ledger (see ``ChunkKey``): printable ASCII with
/// `/` separators, never `..`, never starting with `/`. A key is written
/// once and never rewritten with other bytes: a chunk stored again after
/// garbage collection gets a new generation, hence a new key, so a late
/// delete of the old key can never remove the new object.
public protocol ChunkStore: Sendable {
    /// Stores `bytes` under `key`, replacing any object there. When this
    /// returns, the object is durable (on disk, or acknowledged by the
    /// object store's write quorum).
    func put(_ key: String, _ bytes: [UInt8]) async throws(CloudStorageError)
    /// The object under `key`; ``CloudStorageError/Code/notFound`` when there is none.
    func get(_ key: String) async throws(CloudStorageError) -> [UInt8]
    /// Removes the object under `key`; a missing object is not an error.
    func delete(_ key: String) async throws(CloudStorageError)
    /// The keys that start with `prefix`, in no particular order (tests
    /// and orphan sweeps).
    func keys(withPrefix prefix: String) async throws(CloudStorageError) -> [String]
    /// Removes the temporary files of puts that never finished (a killed
    /// server) once they are older than `age` seconds, and returns how
    /// many. A younger one may be a put still at work. Stores whose writes
    /// leave nothing behind (an object store) remove nothing.
    func removeStaleTemporaries(olderThan age: Double) async throws(CloudStorageError) -> Int
}

extension ChunkStore {
    public func removeStaleTemporaries(olderThan age: Double) async throws(CloudStorageError) -> Int { 0 }
}

extension ChunkKey {
    /// The parts of a key ``make(account:chunk:generation:)`` made; nil
    /// for anything else.
    public static func parse(_ key: String) -> (account: Int64, chunk: String, generation: Int64)? {
        let parts = key.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let account = Int64(parts[0]), let dot = parts[2].lastIndex(of: ".") else { return nil }
        let chunk = String(parts[2][..<dot])
        guard let generation = Int64(parts[2][parts[2].index(after: dot)...]), chunk.count == 64,
              parts[1] == chunk.prefix(2) else { return nil }
        return (account, chunk, generation)
    }
}

/// The object key of one stored generation of a chunk:
/// `<account id>/<first two hex digits>/<chunk id>.<generation>`.
public enum ChunkKey {
    public static func make(account: Int64, chunk: String, generation: Int64) -> String {
        "\(account)/\(chunk.prefix(2))/\(chunk).\(generation)"
    }
}
