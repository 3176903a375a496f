import Container
import FileSystem
import Foundation
import GRDB
import PredicateFormat
import SystemPackage

/// A store file in Core Data's SQLite layout, opened read-only or
/// read-write.
///
/// Read-only opening never creates a file beside the store: the main file
/// and the committed frames of its `-wal` are read into memory and handed
/// to SQLite as an image (see ``openReadOnly(atPath:model:)``). Read-write
/// opening uses WAL mode with a busy timeout, so several processes can
/// share the store as Core Data's do.
public final class PersistentStore: Sendable {
    /// The store's file.
    public let path: String
    /// How the model is laid out in this store.
    public let layout: StoreLayout
    /// Whether the store was opened read-only.
    public let isReadOnly: Bool
    /// The GRDB connection(s): an in-memory queue holding the image when
    /// read-only, a pool over the file otherwise.
    let database: any DatabaseWriter
    /// The layout as the predicate compiler sees it, derived once: every
    /// fetch compiles against it.
    let sqlSchema: SQLSchema

    init(path: String, layout: StoreLayout, isReadOnly: Bool, database: any DatabaseWriter) {
        self.path = path
        self.layout = layout
        self.sqlSchema = layout.sqlSchema
        self.isReadOnly = isReadOnly
        self.database = database
    }

    /// How long a writer waits for another process's transaction.
    public static let busyTimeout: TimeInterval = 5

    /// Opens a store read-only, creating no file beside it.
    ///
    /// The main file is read with the committed transactions of its `-wal`
    /// applied, as a checkpoint would apply them, so a store whose rows
    /// live only in its `-wal` reads in full. The image is checked (header,
    /// page size, truncation) before SQLite sees it.
    ///
    /// - Parameter model: the store's model; when several model versions
    ///   are at hand, use the one whose hashes the store's metadata holds.
    /// - Throws: ``StoreError`` with ``StoreErrorCode/notADatabase``,
    ///   ``StoreErrorCode/damagedWriteAheadLog`` or
    ///   ``StoreErrorCode/notACoreDataStore``.
    public static func openReadOnly(atPath path: String, model: ObjectModel) throws(StoreError) -> PersistentStore {
        let queue = try imageConnection(atPath: path)
        let layout = try reconciledLayout(model: model, database: queue, path: path)
        return PersistentStore(path: path, layout: layout, isReadOnly: true, database: queue)
    }

    /// An in-memory connection holding the store's image (the main file
    /// with its `-wal`'s committed frames), checked to be readable by SQLite.
    static func imageConnection(atPath path: String) throws(StoreError) -> DatabaseQueue {
        let image = try DatabaseImage(readingStoreAt: path)
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(configuration: connectionConfiguration())
        } catch {
            throw StoreError(.io, "cannot open an in-memory connection", path: path).caused(by: error)
        }
        do {
            try queue.inDatabase { db in
                try image.deserialize(into: db)
                _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master")
            }
        } catch let error as StoreError {
            throw error.at(path: path)
        } catch {
            throw StoreError(.notADatabase, "SQLite cannot read the file", path: path).caused(by: error)
        }
        return queue
    }

    /// Opens an existing store for reading and writing, in WAL mode with a
    /// busy timeout, as Core Data opens it.
    public static func open(atPath path: String, model: ObjectModel) throws(StoreError) -> PersistentStore {
        guard FileSystemPaths.isRegularFile(atPath: path) else {
            throw StoreError(.notADatabase, "no file at this path", path: path)
        }
        _ = try DatabaseImage.checkHeader(headerBytes(path))
        let pool = try connect(path)
        let layout = try reconciledLayout(model: model, database: pool, path: path)
        return PersistentStore(path: path, layout: layout, isReadOnly: false, database: pool)
    }

    static func headerBytes(_ path: String) throws(StoreError) -> Data {
        do {
            let descriptor = try FileDescriptor.open(atPath: path, .readOnly)
            defer { descriptor.closeQuietly() }
            return try descriptor.read(count: 100, at: 0)
        } catch {
            throw StoreError(.io, "cannot read the store's header", path: path).caused(by: error)
        }
    }

    static func connect(_ path: String) throws(StoreError) -> DatabasePool {
        var configuration = connectionConfiguration()
        configuration.busyMode = .timeout(busyTimeout)
        // Core Data neither declares nor enforces foreign keys.
        configuration.foreignKeysEnabled = false
        do {
            return try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw StoreError(.io, "SQLite cannot open the store", path: path).caused(by: error)
        }
    }

    /// The model's layout, with entity numbers taken from the store's
    /// `Z_PRIMARYKEY` where it names an entity (or its renaming identifier).
    static func reconciledLayout(model: ObjectModel, database: any DatabaseReader,
                                 path: String) throws(StoreError) -> StoreLayout {
        var layout = try StoreLayout(model: model)
        let rows: [PrimaryKeyRow]
        do {
            rows = try database.read { db in
                guard try db.tableExists("Z_PRIMARYKEY") else { return [] }
                return try PrimaryKeyRow.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY")
            }
        } catch {
            throw StoreError(.notACoreDataStore, "cannot read Z_PRIMARYKEY", path: path).caused(by: error)
        }
        guard !rows.isEmpty else {
            throw StoreError(.notACoreDataStore, "the file has no Z_PRIMARYKEY table or it is empty", path: path)
        }
        layout.adoptEntityNumbers(rows)
        return layout
    }

    /// Runs `body` on a read transaction of the store.
    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try database.read(body)
        } catch let error as StoreError {
            throw error.at(path: path)
        } catch let error as DatabaseError {
            throw StoreError(.io, error.message ?? "the database failed", path: path, sql: error.sql).caused(by: error)
        } catch {
            throw StoreError(.io, "the store cannot be read", path: path).caused(by: error)
        }
    }
}

/// A row of `Z_PRIMARYKEY`: an entity's number, name, super-entity and the
/// largest primary key allocated for it.
public struct PrimaryKeyRow: Sendable, Hashable, FetchableRecord, Decodable {
    public var entityNumber: Int
    public var name: String
    public var superNumber: Int
    public var maximumKey: Int64

    public init(row: Row) throws {
        entityNumber = row[0] ?? 0
        name = row[1] ?? ""
        superNumber = row[2] ?? 0
        maximumKey = row[3] ?? 0
    }
}

extension PersistentStore {
    /// Where Core Data's default container puts a store: `<name>.sqlite` in
    /// `Library/Application Support` (backed up; not purged).
    public static func defaultPath(named name: String, in container: AppContainer,
                                   directory: ContainerDirectory = .applicationSupport) -> String {
        container.url(for: directory).appendingPathComponent(name + ".sqlite").path
    }

    /// Opens the app's store named `name` in its container for reading and
    /// writing, creating it (and its directory, through the container) with
    /// the model's layout on first use, as `NSPersistentContainer` does.
    ///
    /// - Throws: ``StoreError``; a directory the container cannot create is
    ///   ``StoreErrorCode/io``.
    public static func openOrCreate(named name: String, in container: AppContainer, model: ObjectModel,
                                    directory: ContainerDirectory = .applicationSupport) throws(StoreError) -> PersistentStore {
        let path = defaultPath(named: name, in: container, directory: directory)
        do {
            try container.createDirectory(directory.relativePath)
        } catch {
            throw StoreError(.io, "cannot create the store's directory", path: path).caused(by: error)
        }
        if FileSystemPaths.isRegularFile(atPath: path) {
            return try open(atPath: path, model: model)
        }
        return try create(atPath: path, model: model)
    }
}

extension PersistentStore {
    /// Creates a new store at `path` in Core Data's layout: the model's
    /// tables and indexes, `Z_PRIMARYKEY` with a row per entity,
    /// `Z_METADATA` with the metadata property list, and `Z_MODELCACHE`.
    ///
    /// - Parameters:
    ///   - metadata: the metadata to write in `Z_METADATA.Z_PLIST`; by
    ///     default ``StoreMetadata/init(model:frameworkVersion:)`` (the
    ///     model's version hashes, as Core Data writes them) with a new
    ///     `NSStoreUUID`.
    /// - Throws: ``StoreErrorCode/io`` when a file is already there or
    ///   SQLite cannot create it; ``StoreErrorCode/invalidModel`` when the
    ///   model cannot be archived into `Z_MODELCACHE`.
    public static func create(atPath path: String, model: ObjectModel,
                              metadata: StoreMetadata? = nil) throws(StoreError) -> PersistentStore {
        let layout = try StoreLayout(model: model)
        guard !FileSystemPaths.exists(atPath: path) else {
            throw StoreError(.io, "a file is already there", path: path)
        }
        var entries = metadata ?? StoreMetadata(model: model)
        let identifier = entries.otherEntries["NSStoreUUID"]?.stringValue ?? UUID().uuidString
        entries.otherEntries["NSStoreUUID"] = .string(identifier)
        let plist: Data
        let modelCache: Data
        do {
            plist = try entries.propertyListData()
            modelCache = try model.modelCacheData()
        } catch {
            throw StoreError(.invalidModel, "cannot write the store's metadata or model cache", path: path).caused(by: error)
        }
        let pool = try connect(path)
        do {
            try pool.write { db in
                for statement in layout.schemaStatements { try db.execute(sql: statement) }
                for entity in layout.entities {
                    try db.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                                   arguments: [entity.number, entity.name, entity.superNumber])
                }
                try db.execute(sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                               arguments: [identifier, plist])
                try db.execute(sql: "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", arguments: [modelCache])
            }
        } catch {
            throw StoreError(.io, "cannot create the store's tables", path: path).caused(by: error)
        }
        return PersistentStore(path: path, layout: layout, isReadOnly: false, database: pool)
    }

    /// The store's metadata property list (`Z_METADATA.Z_PLIST`).
    public func metadataPropertyList() throws(StoreError) -> Data? {
        try read { db in try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1") }
    }

    /// The model Core Data cached in the store (`Z_MODELCACHE.Z_CONTENT`), still deflated.
    public func modelCacheData() throws(StoreError) -> Data? {
        try read { db in
            guard try db.tableExists("Z_MODELCACHE") else { return nil }
            return try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1")
        }
    }

    /// The rows of `Z_PRIMARYKEY`, in entity-number order.
    public func primaryKeyRows() throws(StoreError) -> [PrimaryKeyRow] {
        try read { db in
            try PrimaryKeyRow.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        }
    }
}
