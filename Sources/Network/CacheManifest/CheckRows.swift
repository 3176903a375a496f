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
    /// The first entry, in path order, that is not a path the manifest may
    /// own; checked while reading, thrown once every row is read.
    var firstMisplaced: Int?

    /// Every row of `resource`, in path order (SQLite's binary collation,
    /// the order of the bytes), so the entries of one directory come
    /// together and each directory is opened once.
    init(_ db: Database) throws {
        var bytes: [UInt8] = [], entries: [Entry] = [], firstMisplaced: Int?
        bytes.reserveCapacity(64 * 1024)
        let rows = try Row.fetchCursor(db, sql: "SELECT path, size, inode, modifiedNanoseconds FROM resource ORDER BY path")
        while let row = try rows.next() {
            let start = bytes.count
            // The text's bytes in place, appended once: a String per row
            // (validated, allocated) is what this avoids.
            try row.withUnsafeData(atIndex: 0) { data in
                data?.withUnsafeBytes { bytes.append(contentsOf: $0) }
            }
            let count = bytes.count - start
            let (owned, slash) = bytes.withUnsafeBufferPointer { buffer in
                let path = UnsafeBufferPointer(rebasing: buffer[start..<start + count])
                return (Self.isOwnedPlace(path), path.lastIndex(of: UInt8(ascii: "/")) ?? -1)
            }
            if firstMisplaced == nil, !owned { firstMisplaced = entries.count }
            entries.append(Entry(start: start, count: count, slash: slash, size: row[1], inode: row[2], modified: row[3]))
        }
        self.bytes = bytes
        self.entries = entries
        self.firstMisplaced = firstMisplaced
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
