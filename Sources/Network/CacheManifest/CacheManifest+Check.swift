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
        // The URL is read only for the entries that have a problem.
        struct Entry { var path: String; var size: Int64; var inode: Int64; var modified: Int64 }
        // Sorted by path, so the entries of one directory come together and
        // each directory is opened once.
        let entries: [Entry] = try read("read the entries") { db in
            var entries: [Entry] = []
            let rows = try Row.fetchCursor(db, sql: "SELECT path, size, inode, modifiedNanoseconds FROM resource ORDER BY path")
            while let row = try rows.next() {
                entries.append(Entry(path: row[0], size: row[1], inode: row[2], modified: row[3]))
            }
            return entries
        }
        for entry in entries { try Self.checkPlace(of: entry.path) }
        var report = CacheCheckReport(checked: entries.count)
        var index = 0
        while index < entries.count {
            let (parent, _) = Self.split(entries[index].path)
            var end = index + 1
            while end < entries.count, Self.split(entries[end].path).parent == parent { end += 1 }
            let group = entries[index..<end]
            do {
                try container.withDirectory(String(parent)) { directory in
                    for entry in group {
                        let name = String(Self.split(entry.path).name)
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
                throw CacheManifestError(.file, path: String(parent), "cannot list: \(error)")
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

    /// A path's directory and last component.
    static func split(_ path: String) -> (parent: Substring, name: Substring) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path[...]) }
        return (path[..<slash], path[path.index(after: slash)...])
    }

    /// A recorded file lives under Caches or the pinned directory; anything
    /// else in the manifest is refused rather than looked at.
    static func checkPlace(of path: String) throws(CacheManifestError) {
        guard path.hasPrefix(ContainerDirectory.caches.relativePath + "/") || path.hasPrefix(pinnedDirectory + "/"),
              !path.split(separator: "/").contains("..") else {
            throw CacheManifestError(.invalidPath, path: path, "a cached file lives under Library/Caches or \(pinnedDirectory)")
        }
    }
}
