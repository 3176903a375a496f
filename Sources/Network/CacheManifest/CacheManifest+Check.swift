import Container
import Foundation
import FileSystem
import GRDB

/// The launch check: the manifest against the disk, in one pass.
extension CacheManifest {
    /// Compares every entry with the file at its path: missing, a size
    /// that differs, or an inode or modification time that differs (the
    /// file was rewritten: ``CacheProblem/Reason/changed``). It reads the
    /// entries once and lists the cache directories once; it hashes
    /// nothing (``verify(progress:)`` does).
    public func check() throws(CacheManifestError) -> CacheCheckReport {
        // The URL is read only for the entries that have a problem. Paths
        // are cut at their last slash once, in UTF-8 offsets: Character
        // indexing of every path (grapheme breaking) cost as much as the
        // 10,000 `fstatat` calls.
        struct Entry { var path: String; var slash: Int; var size: Int64; var inode: Int64; var modified: Int64 }
        // Sorted by path, so the entries of one directory come together and
        // each directory is opened once.
        let entries: [Entry] = try read("read the entries") { db in
            var entries: [Entry] = []
            let rows = try Row.fetchCursor(db, sql: "SELECT path, size, inode, modifiedNanoseconds FROM resource ORDER BY path")
            while let row = try rows.next() {
                let path: String = row[0]
                entries.append(Entry(path: path, slash: Self.lastSlash(in: path), size: row[1], inode: row[2], modified: row[3]))
            }
            return entries
        }
        for entry in entries { try Self.checkPlace(of: entry.path) }
        var report = CacheCheckReport(checked: entries.count)
        var index = 0
        while index < entries.count {
            let first = entries[index]
            let parent = first.path.utf8.prefix(max(first.slash, 0))
            var end = index + 1
            while end < entries.count, entries[end].slash == first.slash,
                  entries[end].path.utf8.prefix(max(first.slash, 0)).elementsEqual(parent) { end += 1 }
            let group = entries[index..<end]
            let parentPath = String(Substring(parent))
            do {
                try container.withDirectory(parentPath) { directory in
                    for entry in group {
                        let name = String(Substring(entry.path.utf8.dropFirst(entry.slash + 1)))
                        // lstat beneath the held directory: a link is
                        // reported as a link, never followed.
                        let status = try? directory?.statusIfPresent(of: name)
                        let reason: CacheProblem.Reason?
                        var found: Int64?
                        if let status = status ?? nil {
                            found = Int64(status.size)
                            reason = !status.isRegularFile ? .notAFile
                                : found != entry.size ? .truncated
                                : Int64(status.inode) != entry.inode || status.modificationNanoseconds != entry.modified ? .changed
                                : nil
                        } else {
                            reason = .missing
                        }
                        if let reason {
                            report.problems.append(CacheProblem(path: entry.path, url: "", reason: reason,
                                                                expectedSize: entry.size, foundSize: reason == .missing ? nil : found))
                        } else {
                            report.healthy += 1
                            report.healthyBytes += entry.size
                        }
                    }
                }
            } catch {
                throw CacheManifestError(.file, path: parentPath, "cannot list: \(error)")
            }
            index = end
        }
        if !report.problems.isEmpty {
            let urls: [String: String] = try read("read the URLs") { db in
                Dictionary(try Row.fetchAll(db, sql: "SELECT path, url FROM resource WHERE path IN (SELECT value FROM json_each(?))",
                                            arguments: [String(decoding: try JSONEncoder().encode(report.problems.map(\.path)), as: UTF8.self)])
                    .map { ($0[0] as String, $0[1] as String) }, uniquingKeysWith: { first, _ in first })
            }
            for index in report.problems.indices { report.problems[index].url = urls[report.problems[index].path] ?? "" }
        }
        return report
    }

    /// The UTF-8 offset of a path's last slash, -1 when it has none.
    static func lastSlash(in path: String) -> Int {
        var offset = -1
        for (index, byte) in path.utf8.enumerated() where byte == UInt8(ascii: "/") { offset = index }
        return offset
    }

    /// A recorded file lives under Caches or the pinned directory; anything
    /// else in the manifest is refused rather than looked at.
    static func checkPlace(of path: String) throws(CacheManifestError) {
        guard path.hasPrefix(ContainerDirectory.caches.relativePath + "/") || path.hasPrefix(pinnedDirectory + "/"),
              !hasParentComponent(path) else {
            throw CacheManifestError(.invalidPath, path: path, "a cached file lives under Library/Caches or \(pinnedDirectory)")
        }
    }

    /// Whether a `/`-separated path has a `..` component, read byte by byte.
    static func hasParentComponent(_ path: String) -> Bool {
        var componentLength = 0, dots = 0
        for byte in path.utf8 {
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
