import GRDB

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
