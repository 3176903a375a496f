import Container
import Foundation
import GRDB

/// The durable list of the files an app downloaded into its caches: the
/// iOS 5 storage guidelines' pattern for data that `Library/Caches` may
/// lose in a purge.
///
/// It lives in `Library/Application Support/CacheManifest.sqlite`, so it is
/// backed up, survives a purge and an update, and is in SQLite's WAL mode
/// with a busy timeout, so two processes of the app may use it at once.
/// At launch, ``check()`` compares it with the disk in one pass and lists
/// what must be fetched again.
///
/// ```swift
/// let manifest = try CacheManifest(container: container)
/// let report = try manifest.check()
/// for problem in report.problems { print(problem.path, problem.reason) }
/// ```
public final class CacheManifest: Sendable {
    /// Where the database lives, relative to the container root.
    public static let relativePath = ContainerDirectory.applicationSupport.relativePath + "/CacheManifest.sqlite"
    /// Where pinned (must-keep) files go, relative to the container root.
    public static let pinnedDirectory = ContainerDirectory.applicationSupport.relativePath + "/Pinned"
    /// How long a writer waits for another process's transaction.
    static let busyTimeout: TimeInterval = 10

    /// The container whose caches are recorded.
    public let container: AppContainer
    let pool: DatabasePool

    /// Opens the manifest of `container`, creating it if needed.
    public init(container: AppContainer) throws(CacheManifestError) {
        self.container = container
        let path = container.url(forRelativePath: Self.relativePath).path
        do {
            try container.createDirectory(ContainerDirectory.applicationSupport.relativePath)
            var configuration = Configuration()
            configuration.busyMode = .timeout(Self.busyTimeout)
            pool = try DatabasePool(path: path, configuration: configuration)
            try Self.migrator.migrate(pool)
        } catch {
            throw CacheManifestError(.database, path: Self.relativePath, "cannot open the manifest").caused(by: error)
        }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: CachedResource.databaseTableName) { table in
                table.primaryKey("path", .text)
                table.column("url", .text).notNull().indexed()
                table.column("etag", .text)
                table.column("lastModified", .text)
                table.column("size", .integer).notNull()
                table.column("sha256", .text).notNull()
                table.column("fetchedAt", .double).notNull()
                table.column("lastUsedAt", .double).notNull().indexed()
                table.column("pinned", .boolean).notNull().defaults(to: false)
                table.column("inode", .integer).notNull().defaults(to: 0)
                table.column("modifiedNanoseconds", .integer).notNull().defaults(to: 0)
            }
        }
        return migrator
    }

    // MARK: Reading and writing entries

    /// Records (or replaces) the entry for `resource.path`.
    public func record(_ resource: CachedResource) throws(CacheManifestError) {
        try write("record \(resource.path)") { db in try resource.save(db) }
    }

    /// Records many entries in one transaction.
    public func record(_ resources: [CachedResource]) throws(CacheManifestError) {
        guard !resources.isEmpty else { return }
        try write("record \(resources.count) entries") { db in for resource in resources { try resource.save(db) } }
    }

    /// The entry for a path, if recorded.
    public func resource(atPath path: String) throws(CacheManifestError) -> CachedResource? {
        try read("read \(path)") { db in try CachedResource.fetchOne(db, key: path) }
    }

    /// The entries downloaded from `url`.
    public func resources(from url: String) throws(CacheManifestError) -> [CachedResource] {
        try read("read \(url)") { db in try CachedResource.filter(Column("url") == url).fetchAll(db) }
    }

    /// Every entry, by path.
    public func all() throws(CacheManifestError) -> [CachedResource] {
        try read("read the entries") { db in try CachedResource.order(Column("path")).fetchAll(db) }
    }

    /// How many entries there are.
    public func count() throws(CacheManifestError) -> Int {
        try read("count the entries") { db in try CachedResource.fetchCount(db) }
    }

    /// Forgets an entry (the file is not touched). Forgetting a path that is
    /// not recorded is not an error: removals are idempotent.
    public func forget(path: String) throws(CacheManifestError) {
        try write("forget \(path)") { db in _ = try CachedResource.deleteOne(db, key: path) }
    }

    /// Marks an entry used now (eviction removes the least recently used).
    public func touch(path: String, at time: Double = Date().timeIntervalSince1970) throws(CacheManifestError) {
        try write("touch \(path)") { db in
            try db.execute(sql: "UPDATE resource SET lastUsedAt = ? WHERE path = ?", arguments: [time, path])
        }
    }

    /// Bytes of the entries that may be evicted (not pinned).
    public func evictableBytes() throws(CacheManifestError) -> Int64 {
        try read("sum the sizes") { db in
            try Int64.fetchOne(db, sql: "SELECT COALESCE(SUM(size), 0) FROM resource WHERE pinned = 0") ?? 0
        }
    }

    /// The entries that may be evicted, least recently used first.
    public func evictionOrder() throws(CacheManifestError) -> [CachedResource] {
        try read("list eviction candidates") { db in
            try CachedResource.filter(Column("pinned") == false).order(Column("lastUsedAt"), Column("path")).fetchAll(db)
        }
    }

    // MARK: Database access with typed errors

    func read<T>(_ action: String, _ body: (Database) throws -> T) throws(CacheManifestError) -> T {
        do { return try pool.read(body) } catch {
            throw CacheManifestError(.database, path: Self.relativePath, "cannot \(action)").caused(by: error)
        }
    }

    func write<T>(_ action: String, _ body: (Database) throws -> T) throws(CacheManifestError) -> T {
        do { return try pool.write(body) } catch {
            throw CacheManifestError(.database, path: Self.relativePath, "cannot \(action)").caused(by: error)
        }
    }
}
