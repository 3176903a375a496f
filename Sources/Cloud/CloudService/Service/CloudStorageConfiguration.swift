import FileSystem
import Foundation

/// Which engines the service runs on: one configuration chooses both.
///
/// - ``embedded(directory:)``, the default: chunks in `<directory>/chunks`
///   and the ledger in `<directory>/ledger.sqlite`. No setup, no network.
/// - ``distributed(_:)``: chunks in OpenStack Swift and the ledger in
///   PostgreSQL, as `scripts/distributed-stack` prints them.
///
/// The server keeps no other state, so every process started with the same
/// configuration serves the same accounts, quotas and snapshots.
public enum CloudStorageConfiguration: Sendable, Hashable {
    case embedded(directory: String)

    /// Reads a distributed configuration from a `stack.json` file.
    public static func distributed(contentsOf path: String) throws -> CloudStorageConfiguration {
        throw CloudStorageError(.unavailable, "read \(path)", "the distributed engines are not built in yet")
    }

    /// Opens the chunk store and the ledger engine.
    public func open() async throws(CloudStorageError) -> (chunks: any ChunkStore, ledger: any LedgerDatabase) {
        switch self {
        case .embedded(let directory):
            let chunks = try DirectoryChunkStore(root: directory + "/chunks")
            return (chunks, try SQLiteLedgerDatabase(path: directory + "/ledger.sqlite"))
        }
    }

    /// Where the data lives, for the log and `--json`.
    public var summary: String {
        switch self {
        case .embedded(let directory): "embedded (\(directory): chunks/ and ledger.sqlite)"
        }
    }
}
