import Container
import Foundation

/// A printable picture of an app container: each directory and file with its
/// size, and a mark for what the backup skips, so the demo's narration shows
/// the per-directory rules at work.
struct ContainerTree {
    /// One line of the picture.
    struct Entry: Equatable {
        var depth: Int
        var name: String
        var isDirectory: Bool
        /// The file size, or for a directory the total of the files beneath it.
        var size: UInt64
        /// Whether a backup leaves this entry out (the container's own rule:
        /// Caches, tmp, the bundle, bookkeeping, do-not-back-up items).
        var skippedByBackup: Bool
    }

    private(set) var entries: [Entry] = []

    /// Lists `container` through its confined API (nothing outside the root
    /// is reachable, and the bundle is shown as one line).
    init(_ container: AppContainer) throws {
        _ = try appendChildren(of: "", depth: 0, in: container)
    }

    /// The total size of the files in the container, bundle excluded.
    var totalSize: UInt64 { entries.filter { $0.depth == 0 }.reduce(0) { $0 + $1.size } }

    private mutating func appendChildren(of path: String, depth: Int, in container: AppContainer) throws -> UInt64 {
        var total: UInt64 = 0
        for name in try container.contentsOfDirectory(path) {
            let child = path.isEmpty ? name : path + "/" + name
            let info = try container.attributes(child)
            let index = entries.count
            entries.append(Entry(depth: depth, name: name, isDirectory: info.isDirectory, size: info.size,
                                 skippedByBackup: !container.backupIncludes(child, isDirectory: info.isDirectory)))
            if info.isDirectory {
                // A bundle is sealed and never backed up; its contents are not the app's data.
                let size = name.hasSuffix(".app") && depth == 0 ? 0 : try appendChildren(of: child, depth: depth + 1, in: container)
                entries[index].size = size
                total += size
            } else {
                total += info.size
            }
        }
        return total
    }

    /// The picture as indented lines, e.g. `  Documents/  1.2 KB`.
    func lines(indent: String = "    ") -> [String] {
        entries.map { entry in
            let name = entry.isDirectory ? entry.name + "/" : entry.name
            var line = indent + String(repeating: "  ", count: entry.depth) + name
            let pad = max(1, 44 - line.count)
            line += String(repeating: " ", count: pad) + ByteCountText.format(entry.size)
            if entry.skippedByBackup { line += "  (not backed up)" }
            return line
        }
    }
}

/// Byte counts as people read them (1,024-based, one decimal).
enum ByteCountText {
    static func format(_ bytes: UInt64) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        let units = ["KB", "MB", "GB", "TB"]
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return String(format: "%.1f", value) + " " + units[unit]
    }
}
