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

    /// Lists `container` through its rules-driven walk (nothing outside the
    /// root is reachable, and the bundle is shown as one line).
    init(_ container: AppContainer) throws {
        // The entries of the directories the walk is in, innermost last,
        // so a directory's size is added up as the walk leaves it.
        var open: [Int] = []
        var entries: [Entry] = []
        func close(downTo depth: Int) {
            while open.count > depth, let index = open.popLast() {
                if let parent = open.last { entries[parent].size += entries[index].size }
            }
        }
        try container.walk { item, _ in
            let entry = item.entry
            close(downTo: entry.depth)
            if item.isLibraryBookkeeping { return .skip }
            let isDirectory = entry.status.isDirectory
            entries.append(Entry(depth: entry.depth, name: entry.name, isDirectory: isDirectory,
                                 size: isDirectory ? 0 : entry.status.size, skippedByBackup: !item.isBackedUp))
            if let parent = open.last, !isDirectory { entries[parent].size += entry.status.size }
            // A bundle is sealed and never backed up; its contents are not the app's data.
            guard isDirectory, item.directory != .bundle else { return .skip }
            open.append(entries.count - 1)
            return .descend
        }
        close(downTo: 0)
        self.entries = entries
    }

    /// The total size of the files in the container, bundle excluded.
    var totalSize: UInt64 { entries.filter { $0.depth == 0 }.reduce(0) { $0 + $1.size } }

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
