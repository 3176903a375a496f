import Container
import FileSystem
import Foundation
import GRDB

/// Reading a manifest without changing anything, for tools that inspect a
/// container (the storage audit) rather than use it as the app does.
extension CacheManifest {
    /// One entry as a read-only reader sees it.
    public struct RecordedFile: Sendable, Hashable {
        /// The file, relative to the container root.
        public var path: String
        /// The size recorded when it was downloaded.
        public var size: Int64
    }

    /// The entries of `container`'s manifest, by path, read without creating
    /// or changing a file; nil when the container has no manifest.
    public static func recordedFiles(in container: AppContainer) throws(CacheManifestError) -> [RecordedFile]? {
        var files: [RecordedFile] = []
        let found = try forEachRecordedFile(in: container) { path, size in files.append(RecordedFile(path: path, size: size)) }
        return found ? files : nil
    }

    /// Calls `body` with each entry's path and recorded size, by path, one
    /// row at a time (a manifest of a million entries is never held as
    /// rows); false when the container has no manifest. Nothing is created
    /// or changed:
    ///
    /// ``init(container:)`` creates the database and migrates it, and
    /// SQLite opening a WAL-mode file even read-only creates its `-shm`
    /// index: either would change the tree being inspected. So a manifest
    /// with no write-ahead log (the normal state once the app closed it) is
    /// opened `immutable=1`, which creates nothing; one with a non-empty
    /// `-wal` (the app is running, or was killed) is opened read-only, so
    /// the newest entries in its log are seen.
    public static func forEachRecordedFile(in container: AppContainer,
                                           _ body: (String, Int64) -> Void) throws(CacheManifestError) -> Bool {
        let path = container.url(forRelativePath: relativePath).standardizedFileURL.path
        let log: FileStatus?
        do {
            guard try FileSystemPaths.status(atPath: path)?.isRegularFile == true else { return false }
            log = try FileSystemPaths.status(atPath: path + "-wal")
        } catch {
            throw CacheManifestError(.file, path: relativePath, "cannot read the manifest's status").caused(by: error)
        }
        var configuration = Configuration()
        configuration.readonly = true
        let location = (log?.size ?? 0) > 0 ? path : immutableURI(path)
        do {
            let queue = try DatabaseQueue(path: location, configuration: configuration)
            defer { try? queue.close() }
            try queue.read { db in
                let rows = try Row.fetchCursor(db, sql: "SELECT path, size FROM resource ORDER BY path")
                while let row = try rows.next() {
                    // A damaged row (a text size, no path) is not an entry:
                    // its file, if any, is then seen as not recorded. Read
                    // as what they hold, the columns never trap.
                    guard let path = String.fromDatabaseValue(row[0]), let size = Int64.fromDatabaseValue(row[1]) else { continue }
                    body(path, size)
                }
            }
            return true
        } catch {
            throw CacheManifestError(.database, path: relativePath, "cannot read the manifest").caused(by: error)
        }
    }

    /// `file:<path>?immutable=1`, the path percent-encoded as SQLite's URI
    /// filenames require.
    private static func immutableURI(_ path: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "/-._~")
        let encoded = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
        return "file:" + encoded + "?immutable=1"
    }
}
