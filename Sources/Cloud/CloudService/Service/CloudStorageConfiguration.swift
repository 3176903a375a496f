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
    case distributed(DistributedStorage)

    /// The engines of the distributed stack.
    public struct DistributedStorage: Sendable, Hashable {
        public var swift: SwiftStoreConfiguration
        public var postgres: PostgresLedgerConfiguration

        public init(swift: SwiftStoreConfiguration, postgres: PostgresLedgerConfiguration) {
            self.swift = swift
            self.postgres = postgres
        }
    }

    /// What `stack.json` holds that the service needs: its `swift` object
    /// as it is, and its `postgres` object's connection fields.
    struct StackFile: Decodable {
        struct Postgres: Decodable {
            var host: String
            var port: Int
            var user: String
            var password: String
            var database: String
        }

        var swift: SwiftStoreConfiguration
        var postgres: Postgres
    }

    /// Reads a distributed configuration from the `stack.json` that
    /// `scripts/distributed-stack start` writes.
    public static func distributed(contentsOf path: String, poolSize: Int = 16) throws(CloudStorageError) -> CloudStorageConfiguration {
        let data: Data?
        do { data = try FileSystemPaths.readFile(atPath: path) } catch {
            throw CloudStorageError(.io, "read \(path)", error.description, underlying: error)
        }
        guard let data else { throw CloudStorageError(.notFound, "read \(path)", "no such file; start the stack with scripts/distributed-stack") }
        let stack: StackFile
        do { stack = try JSONDecoder().decode(StackFile.self, from: data) } catch {
            throw CloudStorageError(.protocolError, "read \(path)", "not a stack configuration: \(error)", underlying: error)
        }
        let postgres = PostgresLedgerConfiguration(host: stack.postgres.host, port: stack.postgres.port, user: stack.postgres.user,
                                                   password: stack.postgres.password, database: stack.postgres.database, poolSize: poolSize)
        return .distributed(DistributedStorage(swift: stack.swift, postgres: postgres))
    }

    /// Opens the chunk store and the ledger engine.
    public func open() async throws(CloudStorageError) -> (chunks: any ChunkStore, ledger: any LedgerDatabase) {
        switch self {
        case .embedded(let directory):
            let chunks = try DirectoryChunkStore(root: directory + "/chunks")
            return (chunks, try SQLiteLedgerDatabase(path: directory + "/ledger.sqlite"))
        case .distributed(let storage):
            return (SwiftObjectStore(configuration: storage.swift), PostgresLedgerDatabase(configuration: storage.postgres))
        }
    }

    /// Where the data lives, for the log and `--json`.
    public var summary: String {
        switch self {
        case .embedded(let directory): "embedded (\(directory): chunks/ and ledger.sqlite)"
        case .distributed(let storage):
            "distributed (OpenStack Swift at \(storage.swift.authURL), container \(storage.swift.container); "
                + "PostgreSQL at \(storage.postgres.host):\(storage.postgres.port)/\(storage.postgres.database))"
        }
    }
}
