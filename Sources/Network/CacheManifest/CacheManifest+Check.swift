import Container
import GRDB

/// The launch check: the manifest against the disk, in one pass.
extension CacheManifest {
    /// Compares every entry with the file at its path: missing, a size
    /// that differs, or an inode or modification time that differs (the
    /// file was rewritten: ``CacheProblem/Reason/changed``). It reads the
    /// entries once and lists the cache directories once; it hashes
    /// nothing (``verify(progress:)`` does).
    public func check() throws(CacheManifestError) -> CacheCheckReport {
        struct Entry { var path: String; var url: String; var size: Int64; var inode: Int64; var modified: Int64 }
        let entries: [Entry] = try read("read the entries") { db in
            var entries: [Entry] = []
            let rows = try Row.fetchCursor(db, sql: "SELECT path, url, size, inode, modifiedNanoseconds FROM resource")
            while let row = try rows.next() {
                entries.append(Entry(path: row[0], url: row[1], size: row[2], inode: row[3], modified: row[4]))
            }
            return entries
        }
        var onDisk: [String: ContainerFileInfo] = [:]
        onDisk.reserveCapacity(entries.count)
        for directory in try directories(holding: entries.map(\.path)) {
            let items: [(path: String, info: ContainerFileInfo)]
            do { items = try container.items(under: directory) } catch {
                throw CacheManifestError(.file, path: directory, "cannot list: \(error)")
            }
            for item in items { onDisk[item.path] = item.info }
        }
        var report = CacheCheckReport(checked: entries.count)
        for entry in entries {
            guard let info = onDisk[entry.path] else {
                report.problems.append(CacheProblem(path: entry.path, url: entry.url, reason: .missing, expectedSize: entry.size))
                continue
            }
            let found = Int64(info.size)
            let reason: CacheProblem.Reason? =
                info.isDirectory || info.isSymbolicLink ? .notAFile
                : found != entry.size ? .truncated
                : Int64(info.inode) != entry.inode || info.modificationNanoseconds != entry.modified ? .changed
                : nil
            if let reason {
                report.problems.append(CacheProblem(path: entry.path, url: entry.url, reason: reason,
                                                    expectedSize: entry.size, foundSize: found))
            } else {
                report.healthy += 1
                report.healthyBytes += found
            }
        }
        report.problems.sort { $0.path < $1.path }
        return report
    }

    /// The top directories to list: Caches and the pinned directory, or a
    /// path's own first two components for anything else recorded.
    private func directories(holding paths: [String]) throws(CacheManifestError) -> Set<String> {
        var directories: Set<String> = []
        for path in paths {
            if path.hasPrefix(ContainerDirectory.caches.relativePath + "/") {
                directories.insert(ContainerDirectory.caches.relativePath)
            } else if path.hasPrefix(Self.pinnedDirectory + "/") {
                directories.insert(Self.pinnedDirectory)
            } else {
                throw CacheManifestError(.invalidPath, path: path, "a cached file lives under Library/Caches or \(Self.pinnedDirectory)")
            }
        }
        return directories
    }
}
