import FileSystem
import SystemPackage
import Foundation

/// The embedded default's chunk store: one file per key beneath a local
/// directory, `<root>/<account>/<2 hex>/<chunk>.<generation>`.
///
/// Every write is an atomic replace with full durability (FileSystem's
/// one atomic write), so a crash or a killed server never leaves a torn
/// chunk, and a put that returned survives a power loss.
public struct DirectoryChunkStore: ChunkStore {
    /// The directory holding the chunks.
    public let root: String

    /// A store beneath `root`, created if missing.
    public init(root: String) throws(CloudStorageError) {
        self.root = root
        do { try FileSystemPaths.makeDirectories(atPath: root, permissions: 0o700) } catch {
            throw Self.storageError(error, "create the chunk directory")
        }
    }

    // Every operation blocks (the put's two fsyncs above all), so each runs
    // on BlockingIO's threads, never on the cooperative pool that every
    // request's continuations need.

    public func put(_ key: String, _ bytes: [UInt8]) async throws(CloudStorageError) {
        let path = try self.path(of: key)
        let options = AtomicWriteOptions(durability: .full, permissions: 0o600)
        try await BlockingIO.run { () throws(CloudStorageError) in
            do throws(FileSystemError) {
                do throws(FileSystemError) {
                    try FileSystemPaths.writeAtomically(bytes, toPath: path, options: options)
                } catch where error.isNotFound {
                    // The first chunk of its fan-out directory: create it, once,
                    // rather than before every put.
                    try FileSystemPaths.makeDirectories(atPath: String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]), permissions: 0o700)
                    try FileSystemPaths.writeAtomically(bytes, toPath: path, options: options)
                }
            } catch {
                throw Self.storageError(error, "put \(key)")
            }
        }
    }

    public func get(_ key: String) async throws(CloudStorageError) -> [UInt8] {
        let path = try self.path(of: key)
        let data = try await BlockingIO.run { () throws(CloudStorageError) -> Data? in
            do throws(FileSystemError) { return try FileSystemPaths.readFile(atPath: path) } catch {
                throw Self.storageError(error, "get \(key)")
            }
        }
        guard let data else { throw CloudStorageError(.notFound, "get \(key)", "no such chunk") }
        return [UInt8](data)
    }

    public func delete(_ key: String) async throws(CloudStorageError) {
        let path = try self.path(of: key)
        try await BlockingIO.run { () throws(CloudStorageError) in
            do throws(FileSystemError) { try FileSystemPaths.removeFile(atPath: path) } catch {
                throw Self.storageError(error, "delete \(key)")
            }
        }
    }

    public func keys(withPrefix prefix: String) async throws(CloudStorageError) -> [String] {
        try await BlockingIO.run { () throws(CloudStorageError) in try listKeys(withPrefix: prefix) }
    }

    public func removeStaleTemporaries(olderThan age: Double) async throws(CloudStorageError) -> Int {
        try await BlockingIO.run { () throws(CloudStorageError) in try removeTemporaries(olderThan: age) }
    }

    private func listKeys(withPrefix prefix: String) throws(CloudStorageError) -> [String] {
        var keys: [String] = []
        do {
            for account in try FileSystemPaths.entries(atPath: root) {
                for fan in try FileSystemPaths.entries(atPath: root + "/" + account) {
                    for name in try FileSystemPaths.entries(atPath: root + "/" + account + "/" + fan)
                    where !FileDescriptor.isTemporaryName(name) {
                        let key = account + "/" + fan + "/" + name
                        if key.hasPrefix(prefix) { keys.append(key) }
                    }
                }
            }
        } catch {
            throw Self.storageError(error, "list \(prefix)")
        }
        return keys
    }

    private func removeTemporaries(olderThan age: Double) throws(CloudStorageError) -> Int {
        var removed = 0
        do {
            for account in try FileSystemPaths.entries(atPath: root) {
                for fan in try FileSystemPaths.entries(atPath: root + "/" + account) {
                    let directory = try FileDescriptor.openDirectory(atPath: root + "/" + account + "/" + fan, followLinks: false)
                    defer { directory.closeQuietly() }
                    removed += try directory.removeStaleTemporaries(olderThan: age).count
                }
            }
        } catch {
            throw Self.storageError(error, "remove stale temporary files")
        }
        return removed
    }

    /// The file of `key`; keys are the ledger's, but a malformed one is
    /// refused rather than resolved outside the root.
    private func path(of key: String) throws(CloudStorageError) -> String {
        let parts = key.split(separator: "/", omittingEmptySubsequences: false)
        guard !key.isEmpty, parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }),
              key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else {
            throw CloudStorageError(.constraint, "resolve \(key.prefix(200))", "not a chunk key")
        }
        return root + "/" + key
    }

    private static func storageError(_ error: FileSystemError, _ operation: String) -> CloudStorageError {
        CloudStorageError(error.isNoSpace ? .full : .io, operation, error.description, underlying: error)
    }
}
