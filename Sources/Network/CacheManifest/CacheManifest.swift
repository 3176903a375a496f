import Container
import Dispatch
import FileSystem
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

/// The launch check: the manifest against the disk, in one pass.
extension CacheManifest {
    /// Compares every entry with the file at its path: missing, a size
    /// that differs, or an inode or modification time that differs (the
    /// file was rewritten: ``CacheProblem/Reason/changed``). It reads the
    /// entries once and lists the cache directories once; it hashes
    /// nothing (``verify(progress:)`` does). The directories are split
    /// between the available cores; the report is in path order whatever
    /// the split.
    public func check() throws(CacheManifestError) -> CacheCheckReport {
        // Paths stay bytes in one buffer; a String is made for a directory
        // and for a reported path only. Character indexing of every path
        // (grapheme breaking), then a String per path and per name, cost as
        // much as the `fstatat` calls.
        let rows: CheckRows = try read("read the entries") { db in try CheckRows(db) }
        var groups: [Range<Int>] = []
        var index = 0
        while index < rows.entries.count {
            let end = rows.groupEnd(from: index)
            groups.append(index..<end)
            index = end
        }
        let passes = Self.lookInParallel(rows, groups: groups, container: container)
        var report = CacheCheckReport(checked: rows.entries.count + rows.rejected.count)
        for pass in passes {
            report.healthy += pass.healthy
            report.healthyBytes += pass.healthyBytes
            for finding in pass.findings {
                let entry = rows.entries[finding.entry]
                report.problems.append(CacheProblem(path: rows.path(entry), url: "", reason: finding.reason,
                                                    expectedSize: entry.size, foundSize: finding.foundSize, detail: finding.detail))
            }
        }
        if !report.problems.isEmpty {
            let urls: [String: String] = try read("read the URLs") { db in
                Dictionary(try Row.fetchAll(db, sql: "SELECT path, url FROM resource WHERE path IN (SELECT value FROM json_each(?))",
                                            arguments: [String(decoding: try JSONEncoder().encode(report.problems.map(\.path)), as: UTF8.self)])
                    .map { (String.fromDatabaseValue($0[0]) ?? "", String.fromDatabaseValue($0[1]) ?? "") },
                           uniquingKeysWith: { first, _ in first })
            }
            for index in report.problems.indices { report.problems[index].url = urls[report.problems[index].path] ?? "" }
        }
        // The rows not looked at, in path order among the others.
        if !rows.rejected.isEmpty {
            report.problems += rows.rejected
            report.problems.sort { ($0.path, $0.row ?? 0) < ($1.path, $1.row ?? 0) }
        }
        return report
    }

    /// The groups cut into one consecutive run per available core, of about
    /// as many entries each, looked at on separate threads. 74 % of a
    /// single-threaded check was in the kernel (path lookups, which do not
    /// lock one another in different names), so two cores nearly halve it.
    /// The passes come back in the runs' order, which is path order.
    static func lookInParallel(_ rows: CheckRows, groups: [Range<Int>], container: AppContainer) -> [CheckPass] {
        let runs = splitIntoRuns(groups, count: min(ProcessInfo.processInfo.activeProcessorCount, groups.count))
        guard runs.count > 1 else { return runs.map { CheckPass(rows, groups: groups[$0], container: container) } }
        // Each run stores its pass once, at its end: two lock operations in all.
        let passes = Locked([CheckPass](repeating: CheckPass(), count: runs.count))
        DispatchQueue.concurrentPerform(iterations: runs.count) { run in
            let pass = CheckPass(rows, groups: groups[runs[run]], container: container)
            passes.withLock { $0[run] = pass }
        }
        return passes.withLock { $0 }
    }

    /// Consecutive runs of `groups`, `count` of them at most, each ending
    /// where the entries before it reach their share of the total.
    static func splitIntoRuns(_ groups: [Range<Int>], count: Int) -> [Range<Int>] {
        guard count > 1, let total = groups.last?.upperBound else { return groups.isEmpty ? [] : [0..<groups.count] }
        var runs: [Range<Int>] = []
        var start = 0
        for (index, group) in groups.enumerated() where runs.count < count - 1 {
            if group.upperBound * count >= total * (runs.count + 1) {
                runs.append(start..<index + 1)
                start = index + 1
            }
        }
        if start < groups.count { runs.append(start..<groups.count) }
        return runs
    }
}

/// Reading the entries of a manifest that may hold damaged rows: the app
/// (or whoever writes its container) can write the database, so a row may
/// hold a text where a number belongs, or nothing at all. One such row is
/// reported and the others are read; it never stops every command.
extension CacheManifest {
    /// The entries that read whole, by path, and a problem for each row
    /// that does not (``CacheProblem/Reason/malformedRow``, with its row
    /// id and the columns at fault).
    public func readableEntries() throws(CacheManifestError) -> (entries: [CachedResource], damaged: [CacheProblem]) {
        try read("read the entries") { db in
            var entries: [CachedResource] = [], damaged: [CacheProblem] = []
            let rows = try Row.fetchCursor(db, sql: """
                SELECT rowid, path, url, etag, lastModified, size, sha256, fetchedAt, lastUsedAt, pinned, inode, modifiedNanoseconds
                FROM resource ORDER BY path
                """)
            while let row = try rows.next() {
                switch CachedResource.checking(row) {
                case .entry(let entry): entries.append(entry)
                case .damaged(let problem): damaged.append(problem)
                }
            }
            return (entries, damaged)
        }
    }
}

/// A row read: its entry, or why it has none.
enum CheckedRow {
    case entry(CachedResource)
    case damaged(CacheProblem)
}

extension CachedResource {
    /// The entry of a row of `SELECT rowid, path, url, etag, lastModified,
    /// size, sha256, fetchedAt, lastUsedAt, pinned, inode,
    /// modifiedNanoseconds`, each column read as what it holds; the
    /// problem naming the row and its wrong columns otherwise.
    static func checking(_ row: Row) -> CheckedRow {
        let rowID = Int64.fromDatabaseValue(row[0]) ?? -1
        var wrong: [String] = []
        func text(_ index: Int, _ name: String) -> String {
            let value: DatabaseValue = row[index]
            if case .string(let text) = value.storage { return text }
            wrong.append(name)
            return ""
        }
        func optionalText(_ index: Int, _ name: String) -> String? {
            let value: DatabaseValue = row[index]
            switch value.storage {
            case .null: return nil
            case .string(let text): return text
            default: wrong.append(name); return nil
            }
        }
        func number<T: DatabaseValueConvertible>(_ index: Int, _ name: String, _ type: T.Type) -> T? {
            let value = T.fromDatabaseValue(row[index])
            if value == nil { wrong.append(name) }
            return value
        }
        let path = text(1, "path"), url = text(2, "url"), sha256 = text(6, "sha256")
        let etag = optionalText(3, "etag"), lastModified = optionalText(4, "lastModified")
        let size = number(5, "size", Int64.self), fetchedAt = number(7, "fetchedAt", Double.self)
        let lastUsedAt = number(8, "lastUsedAt", Double.self), pinned = number(9, "pinned", Bool.self)
        let inode = number(10, "inode", Int64.self), modified = number(11, "modifiedNanoseconds", Int64.self)
        if path.isEmpty, !wrong.contains("path") { wrong.append("path") }
        if let size, size < 0 { wrong.append("size") }
        guard wrong.isEmpty, let size, let fetchedAt, let lastUsedAt, let pinned, let inode, let modified else {
            return .damaged(CacheProblem(path: path, url: url, reason: .malformedRow, expectedSize: size ?? 0, row: rowID,
                                         detail: "row \(rowID) has no valid \(wrong.joined(separator: ", "))"))
        }
        return .entry(CachedResource(path: path, url: url, etag: etag, lastModified: lastModified, size: size, sha256: sha256,
                                       fetchedAt: fetchedAt, lastUsedAt: lastUsedAt, pinned: pinned, inode: inode,
                                       modifiedNanoseconds: modified))
    }
}

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

/// The thorough check, and pinning.
extension CacheManifest {
    /// ``check()``, then hashes every file that passed and every changed
    /// one: a file whose SHA-256 differs is ``CacheProblem/Reason/corrupt``.
    /// A changed file whose hash still matches is recorded afresh (its new
    /// inode and time) and counts as healthy. A file that cannot be read
    /// (it became a link or a FIFO since the check, say) is reported
    /// ``CacheProblem/Reason/unreadable`` and the others are hashed all the
    /// same. `progress` gets (done, total).
    public func verify(progress: ((Int, Int) -> Void)? = nil) throws(CacheManifestError) -> CacheCheckReport {
        var report = try check()
        // Damaged rows are already in the check's report.
        let entries = try readableEntries().entries
        let suspects = Set(report.problems.filter { $0.reason == .changed }.map(\.path))
        let absent = Set(report.problems.filter { $0.reason != .changed }.map(\.path))
        report.problems.removeAll { $0.reason == .changed }
        report.healthy = 0
        report.healthyBytes = 0
        var done = 0
        let total = entries.count(where: { !absent.contains($0.path) })
        for entry in entries where !absent.contains(entry.path) {
            done += 1
            defer { progress?(done, total) }
            let digest: String
            do throws(CacheManifestError) { digest = try ContentDigest.sha256(ofRegularFileAt: entry.path, in: container) } catch {
                report.problems.append(CacheProblem(path: entry.path, url: entry.url, reason: .unreadable,
                                                    expectedSize: entry.size, detail: error.message))
                continue
            }
            if digest == entry.sha256 {
                report.healthy += 1
                report.healthyBytes += entry.size
                if suspects.contains(entry.path) {
                    do throws(CacheManifestError) { try refreshIdentity(of: entry) } catch {
                        report.problems.append(CacheProblem(path: entry.path, url: entry.url, reason: .unreadable,
                                                            expectedSize: entry.size, detail: error.message))
                    }
                }
            } else {
                report.problems.append(CacheProblem(path: entry.path, url: entry.url, reason: .corrupt,
                                                    expectedSize: entry.size, foundSize: entry.size))
            }
        }
        report.problems.sort { ($0.path, $0.row ?? 0) < ($1.path, $1.row ?? 0) }
        return report
    }

    /// Records the inode and time the file has now, so the next quick
    /// check trusts it.
    public func refreshIdentity(of entry: CachedResource) throws(CacheManifestError) {
        let info: ContainerFileInfo
        do { info = try container.attributes(entry.path) } catch {
            throw CacheManifestError(.file, path: entry.path, "cannot read attributes").caused(by: error)
        }
        var updated = entry
        updated.inode = Int64(info.inode)
        updated.modifiedNanoseconds = info.modificationNanoseconds
        try record(updated)
    }

    /// Makes a recorded file must-keep, as the iOS 5.0.1 rules say for
    /// data the user needs offline (the pilot's maps): it moves to
    /// `Library/Application Support/Pinned/…` with the do-not-back-up flag,
    /// so a purge cannot remove it and a backup does not carry it. Returns
    /// the new entry.
    @discardableResult
    public func pin(path: String) throws(CacheManifestError) -> CachedResource {
        guard var entry = try resource(atPath: path) else {
            throw CacheManifestError(.notRecorded, path: path, "the manifest has no entry for this file")
        }
        if entry.pinned { return entry }
        let cachesPrefix = ContainerDirectory.caches.relativePath + "/"
        guard path.hasPrefix(cachesPrefix) else {
            throw CacheManifestError(.invalidPath, path: path, "only files in Library/Caches can be pinned")
        }
        let destination = Self.pinnedDirectory + "/" + path.dropFirst(cachesPrefix.count)
        do {
            let parent = destination.split(separator: "/").dropLast().joined(separator: "/")
            try container.createDirectory(parent)
            try container.setExcludedFromBackup(true, at: Self.pinnedDirectory)
            try container.replaceItem(at: destination, withItemAt: path)
            try container.setExcludedFromBackup(true, at: destination)
        } catch {
            throw CacheManifestError(.file, path: path, "cannot move to \(destination)").caused(by: error)
        }
        try write("pin \(path)") { db in
            _ = try CachedResource.deleteOne(db, key: path)
            entry.path = destination
            entry.pinned = true
            try entry.save(db)
        }
        return entry
    }
}
