import Container
import FileSystem
import SystemPackage

/// What one app's walk gathers: usage by category, and the few items the
/// findings need once the walk is over (large files, cache files, the
/// preferences directory's names), never the whole tree.
struct AppScan {
    var usage: [StorageCategory: StorageUsage] = [:]
    /// A directory the backup leaves out (the flag), while the walk is in it.
    var excludedFromBackup: String?
    var largeDocuments: [(path: String, status: FileStatus)] = []
    var cacheExtensions: Set<String> = []
    var cacheFiles: [(path: String, bytes: UInt64)] = []
    var largeBackedUpSupport: [(path: String, status: FileStatus)] = []
    /// `Library/Preferences/*.plist`: whether each starts as a binary plist.
    var preferenceFiles: [(name: String, bytes: UInt64, isBinary: Bool)] = []
    var preferenceNames: Set<String> = []
    /// SQLite files by database path (the `-wal` and `-shm` joined to theirs).
    var databaseBytes: [String: UInt64] = [:]
    /// The bundle's files by bundle-relative path.
    var bundleFiles: [String: UInt64] = [:]
    var cases = CaseCollisionTracker()

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

    /// The lowercased extension of a name, if it has one.
    static func pathExtension(_ path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...]
        return ext.isEmpty ? nil : ext.lowercased()
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
