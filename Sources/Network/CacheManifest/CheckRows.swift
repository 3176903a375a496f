import Container
import GRDB

/// The rows the launch check reads, kept as bytes: every path in one
/// buffer, and per entry its offsets and the recorded size, inode and
/// time. No `String` is made per entry; a path becomes one only when it is
/// reported.
struct CheckRows: Sendable {
    /// One manifest entry: where its path lies in ``bytes``.
    struct Entry: Sendable {
        /// The offset of the path's first byte, and the path's length in bytes.
        var start: Int, count: Int
        /// The offset of the path's last slash from `start`; -1 when it has none.
        var slash: Int
        /// As recorded: size in bytes, inode, modification time in nanoseconds.
        var size: Int64, inode: Int64, modified: Int64
    }

    var bytes: [UInt8] = []
    var entries: [Entry] = []
    /// The rows that are not looked at, each reported with its row id: a
    /// damaged row (a column of the wrong type, no path) or a path the
    /// manifest may not own. One bad row never stops the check of the
    /// others.
    var rejected: [CacheProblem] = []

    /// Every row of `resource`, in path order (SQLite's binary collation,
    /// the order of the bytes), so the entries of one directory come
    /// together and each directory is opened once.
    init(_ db: Database) throws {
        var bytes: [UInt8] = [], entries: [Entry] = [], rejected: [CacheProblem] = []
        bytes.reserveCapacity(64 * 1024)
        let rows = try Row.fetchCursor(db, sql: "SELECT rowid, path, size, inode, modifiedNanoseconds FROM resource ORDER BY path")
        while let row = try rows.next() {
            let rowID: Int64 = Int64.fromDatabaseValue(row[0]) ?? -1
            // Each column is read as what it holds: a value of another type
            // (which SQLite stores without complaint) is a damaged row,
            // never a trap in the conversion.
            let size = Int64.fromDatabaseValue(row[2]), inode = Int64.fromDatabaseValue(row[3])
            let modified = Int64.fromDatabaseValue(row[4])
            guard case .string(let text) = (row[1] as DatabaseValue).storage, !text.isEmpty,
                  let size, size >= 0, let inode, let modified else {
                rejected.append(Self.damaged(row, rowID: rowID))
                continue
            }
            let start = bytes.count
            // The text's bytes in place, appended once: a String per row
            // (validated, allocated) is what this avoids.
            try row.withUnsafeData(atIndex: 1) { data in
                data?.withUnsafeBytes { bytes.append(contentsOf: $0) }
            }
            let count = bytes.count - start
            let (owned, slash) = bytes.withUnsafeBufferPointer { buffer in
                let path = UnsafeBufferPointer(rebasing: buffer[start..<start + count])
                return (Self.isOwnedPlace(path), path.lastIndex(of: UInt8(ascii: "/")) ?? -1)
            }
            guard owned else {
                bytes.removeSubrange(start...)
                rejected.append(CacheProblem(path: text, url: "", reason: .invalidPath, expectedSize: size, row: rowID,
                    detail: "a cached file lives under Library/Caches or \(CacheManifest.pinnedDirectory), with no '..'"))
                continue
            }
            entries.append(Entry(start: start, count: count, slash: slash, size: size, inode: inode, modified: modified))
        }
        self.bytes = bytes
        self.entries = entries
        self.rejected = rejected
    }

    /// The problem of a damaged row: which columns are wrong.
    private static func damaged(_ row: Row, rowID: Int64) -> CacheProblem {
        let path: DatabaseValue = row[1]
        var wrong: [String] = []
        if case .string(let text) = path.storage, !text.isEmpty {} else { wrong.append("path") }
        for (index, name) in [(2, "size"), (3, "inode"), (4, "modifiedNanoseconds")]
        where Int64.fromDatabaseValue(row[index]).map({ name != "size" || $0 >= 0 }) != true {
            wrong.append(name)
        }
        let text = String.fromDatabaseValue(path) ?? ""
        return CacheProblem(path: text, url: "", reason: .malformedRow, expectedSize: Int64.fromDatabaseValue(row[2]) ?? 0,
                            row: rowID, detail: "row \(rowID) has no valid \(wrong.joined(separator: ", "))")
    }

    /// The path of `entry`, made for a report or an error.
    func path(_ entry: Entry) -> String {
        String(decoding: bytes[entry.start..<entry.start + entry.count], as: UTF8.self)
    }

    /// The directory of `entry` (its path up to the last slash), for the
    /// container to open.
    func directory(_ entry: Entry) -> String {
        String(decoding: bytes[entry.start..<entry.start + max(entry.slash, 0)], as: UTF8.self)
    }

    /// The entries from `first` on that share its directory: the end of
    /// its group.
    func groupEnd(from first: Int) -> Int {
        let head = entries[first]
        var end = first + 1
        bytes.withUnsafeBufferPointer { buffer in
            let parent = UnsafeBufferPointer(rebasing: buffer[head.start..<head.start + max(head.slash, 0)])
            while end < entries.count, entries[end].slash == head.slash,
                  UnsafeBufferPointer(rebasing: buffer[entries[end].start..<entries[end].start + max(head.slash, 0)])
                      .elementsEqual(parent) { end += 1 }
        }
        return end
    }

    static let cachesPrefix = Array((ContainerDirectory.caches.relativePath + "/").utf8)
    static let pinnedPrefix = Array((CacheManifest.pinnedDirectory + "/").utf8)

    /// A recorded file lives under Caches or the pinned directory, with no
    /// `..` component; anything else in the manifest is refused rather than
    /// looked at.
    static func isOwnedPlace(_ path: UnsafeBufferPointer<UInt8>) -> Bool {
        (path.starts(with: cachesPrefix) || path.starts(with: pinnedPrefix)) && !hasParentComponent(path)
    }

    /// Whether a `/`-separated path has a `..` component, read byte by byte.
    static func hasParentComponent(_ path: some Sequence<UInt8>) -> Bool {
        var componentLength = 0, dots = 0
        for byte in path {
            if byte == UInt8(ascii: "/") {
                if componentLength == 2 && dots == 2 { return true }
                componentLength = 0; dots = 0
            } else {
                componentLength += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        return componentLength == 2 && dots == 2
    }
}
