import FileSystem
import Foundation
import GRDB
import GRDBSQLite

/// A store's database as bytes in memory: the main file with the
/// committed frames of its `-wal` written over it, ready to hand to SQLite
/// with `sqlite3_deserialize`.
///
/// Reading the files ourselves is what lets a store open read-only without
/// a file appearing beside it: SQLite opening a WAL-mode file even with
/// `mode=ro` creates the `-shm` index (and nothing stops it as root), while
/// `immutable=1` ignores the `-wal`, where a store's newest rows may be.
struct DatabaseImage {
    var bytes: Data

    /// Reads `path` and its `-wal`, if any, through the FileSystem module.
    ///
    /// - Throws: ``StoreErrorCode/notADatabase`` for a missing, empty,
    ///   truncated or non-SQLite file; ``StoreErrorCode/damagedWriteAheadLog``
    ///   for a `-wal` with a damaged header.
    init(readingStoreAt path: String) throws(StoreError) {
        let main: Data?
        let log: Data?
        let journal: Data?
        do {
            main = try FileSystemPaths.readFile(atPath: path)
            log = try FileSystemPaths.readFile(atPath: path + "-wal")
            journal = try FileSystemPaths.readFile(atPath: path + "-journal")
        } catch {
            throw StoreError(.io, "cannot read the store", path: path).caused(by: error)
        }
        guard let main else { throw StoreError(.notADatabase, "no file at this path", path: path) }
        // A rollback journal that starts with its magic number is hot: the
        // main file holds part of a write the journal would undo. Reading
        // the main file alone would show that half; SQLite rolls it back
        // when the store is next opened for writing.
        let journalMagic: [UInt8] = [0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7]
        if let journal, journal.count >= 28, Array(journal.prefix(8)) == journalMagic {
            throw StoreError(.interruptedWrite,
                             "a rollback journal (-journal) holds an interrupted write; open the store for writing once "
                             + "(SQLite rolls the write back), or copy it with its -journal and open the copy", path: path)
        }
        do {
            try self.init(main: main, writeAheadLog: log ?? Data())
        } catch {
            throw error.at(path: path)
        }
    }

    /// Joins a main file's bytes and its log's.
    init(main: Data, writeAheadLog: Data) throws(StoreError) {
        var image = main
        let log = try WriteAheadLog(writeAheadLog)
        if image.isEmpty && log.committedPageCount == nil {
            throw StoreError(.notADatabase, "the file is empty")
        }
        if !image.isEmpty {
            let pageSize = try Self.checkHeader(image)
            if log.committedPageCount != nil && log.pageSize != pageSize {
                throw StoreError(.damagedWriteAheadLog, "the -wal's page size \(log.pageSize) is not the database's \(pageSize)")
            }
        }
        try log.apply(to: &image)
        let pageSize = try Self.checkHeader(image)
        guard image.count % pageSize == 0 else {
            throw StoreError(.notADatabase, "the file is \(image.count) bytes, not a whole number of \(pageSize)-byte pages")
        }
        // The header's own page count is authoritative when its change
        // counter matches the "version valid for" field (offset 92).
        let headerPages = Int(WriteAheadLog.word(image, 28))
        if headerPages > 0, WriteAheadLog.word(image, 24) == WriteAheadLog.word(image, 92),
           headerPages * pageSize > image.count {
            throw StoreError(.notADatabase, "the file is truncated: \(image.count / pageSize) of \(headerPages) pages")
        }
        // Read and write versions 1 (rollback journal): a WAL-mode header
        // would make SQLite look for a -wal and -shm beside a memory image.
        let base = image.startIndex
        image[base + 18] = 1
        image[base + 19] = 1
        bytes = image
    }

    /// Checks the 100-byte header and returns the page size.
    static func checkHeader(_ image: Data) throws(StoreError) -> Int {
        guard image.count >= 100 else {
            throw StoreError(.notADatabase, "the file is \(image.count) bytes, shorter than SQLite's 100-byte header")
        }
        guard image.prefix(16) == Data("SQLite format 3\0".utf8) else {
            throw StoreError(.notADatabase, "the file does not start with \"SQLite format 3\"")
        }
        let base = image.startIndex
        let raw = Int(image[base + 16]) << 8 | Int(image[base + 17])
        let pageSize = raw == 1 ? 65536 : raw
        guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else {
            throw StoreError(.notADatabase, "the header's page size \(raw) is not a power of two from 512 to 65536")
        }
        return pageSize
    }

    /// Makes the image the `main` database of an in-memory connection,
    /// read-only; SQLite owns the copy and frees it on close.
    func deserialize(into db: Database) throws(StoreError) {
        let size = bytes.count
        guard let buffer = sqlite3_malloc64(sqlite3_uint64(size)) else {
            throw StoreError(.io, "cannot allocate \(size) bytes for the database image")
        }
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { buffer.copyMemory(from: base, byteCount: size) }
        }
        let flags = UInt32(SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY)
        let status = sqlite3_deserialize(db.sqliteConnection, "main", buffer.assumingMemoryBound(to: UInt8.self),
                                         sqlite3_int64(size), sqlite3_int64(size), flags)
        guard status == SQLITE_OK else {
            throw StoreError(.notADatabase, "SQLite refused the database image (code \(status))")
        }
        db.clearSchemaCache()
    }
}
