import Container
import FileSystem
import SystemPackage

/// What one app's walk gathers: usage by category, and the few items the
/// findings need once the walk is over (large files, cache files, the
/// preferences directory's names), never the whole tree.
struct AppScan {
    /// Usage by category, at ``StorageCategory/ordinal``.
    var usage = [StorageUsage](repeating: StorageUsage(), count: StorageCategory.allCases.count)
    var largeDocuments: [(path: String, status: FileStatus)] = []
    var cacheExtensions: Set<String> = []
    /// The raw extension of the cache file met last, whose lowercased form
    /// is in ``cacheExtensions`` (most cache files share theirs).
    var lastCacheExtension: Substring = ""
    /// Cache files the manifest does not list (all of them without one).
    var unknownCacheFiles: [(path: String, bytes: UInt64)] = []
    var largeBackedUpSupport: [(path: String, status: FileStatus)] = []
    /// `Library/Preferences/*.plist`: whether each starts as a binary plist.
    var preferenceFiles: [(name: String, bytes: UInt64, isBinary: Bool)] = []
    var preferenceNames: Set<String> = []
    /// SQLite files by database path (the `-wal` and `-shm` joined to theirs).
    var databaseBytes: [String: UInt64] = [:]
    /// The bundle's files by bundle-relative path.
    var bundleFiles: [String: UInt64] = [:]
    var cases = CaseCollisionTracker()
    /// Items whose name (or a directory's above them) is not valid UTF-8:
    /// counted like the rest, left out of the backup figures (a backup
    /// leaves them out), and named in a note.
    var repairedNames = 0
    var firstRepairedName: String?
    /// Files with several links, each time the walk met one.
    var linkedFiles: [LinkedFileCount] = []

    static let preferencesDirectory = ContainerDirectory.preferences.relativePath
    static let binaryPlistMagic = Array("bplist00".utf8)
    static let databaseSuffixes = [".sqlite", ".sqlite-wal", ".sqlite-shm"]

    /// The database a `.sqlite`, `.sqlite-wal` or `.sqlite-shm` file belongs to.
    static func databasePath(of path: String) -> String? {
        for suffix in databaseSuffixes where path.hasSuffix(suffix) {
            return String(path.dropLast(suffix.count - ".sqlite".count))
        }
        return nil
    }

    /// Whether a name ends like a SQLite file (``databaseSuffixes``).
    static func hasDatabaseSuffix(_ name: String) -> Bool {
        // Each suffix ends in "e", "l" or "m": one byte rules most names
        // out before three suffix comparisons (asked of every file).
        guard let last = name.utf8.last, last == UInt8(ascii: "e") || last == UInt8(ascii: "l") || last == UInt8(ascii: "m") else {
            return false
        }
        return databaseSuffixes.contains { name.hasSuffix($0) }
    }

    /// The lowercased extension of a name, if it has one.
    static func pathExtension(_ path: String) -> String? {
        rawExtension(path).map { $0.lowercased() }
    }

    /// The extension of a path's last component as written, if it has one
    /// (the paths are the walk's, with no trailing "/").
    static func rawExtension(_ path: String) -> Substring? {
        let name = path.lastIndex(of: "/").map { path[path.index(after: $0)...] } ?? path[...]
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...]
        return ext.isEmpty ? nil : ext
    }

    /// ``rawExtension(_:)`` of a name (no "/"), byte by byte when it is
    /// ASCII (a character search costs a walk of a million cache files a
    /// twentieth of its time; in ASCII every "." is a character of its own).
    static func rawExtension(ofName name: String) -> Substring? {
        let bytes = name.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return rawExtension(name) }
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot != bytes.startIndex else { return nil }
        let ext = name[bytes.index(after: dot)...]
        return ext.isEmpty ? nil : ext
    }

    /// Adds the extension of the cache file `name` to ``cacheExtensions``.
    mutating func noteCacheExtension(of name: String) {
        guard let ext = Self.rawExtension(ofName: name), !ext.utf8.elementsEqual(lastCacheExtension.utf8) else { return }
        cacheExtensions.insert(ext.lowercased())
        lastCacheExtension = ext
    }

    /// Whether the regular file `name` in `parent` starts with `bplist00`.
    static func startsAsBinaryPlist(_ name: String, in parent: FileDescriptor, status: FileStatus) throws(FileSystemError) -> Bool {
        let fd = try parent.openSeen(name, as: status)
        defer { fd.closeQuietly() }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: binaryPlistMagic.count, alignment: 1)
        defer { buffer.deallocate() }
        let count = try fd.readFully(into: buffer, at: 0)
        return count == binaryPlistMagic.count && Array(buffer) == binaryPlistMagic
    }
}
