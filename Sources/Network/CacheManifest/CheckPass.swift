import Container
import FileSystem
import SystemPackage

/// The launch check's look at the disk for one run of directory groups:
/// each directory opened once beneath the container, each name `fstatat`ed
/// beneath it. Runs share nothing but the rows, which they only read, so
/// several run at once on separate threads.
struct CheckPass: Sendable {
    /// An entry that is not as recorded.
    struct Finding: Sendable {
        var entry: Int
        var reason: CacheProblem.Reason
        var foundSize: Int64?
    }

    var findings: [Finding] = []
    var healthy = 0
    var healthyBytes: Int64 = 0
    /// The directory that could not be opened, and why; the pass stops there.
    var failure: (directory: String, reason: String)?

    init() {}

    /// Checks the groups `groups` (ranges of entries, one directory each).
    init(_ rows: CheckRows, groups: ArraySlice<Range<Int>>, container: AppContainer) {
        // The buffer is only read, by every pass at once.
        rows.bytes.withUnsafeBufferPointer { paths in look(at: rows, paths, groups: groups, container: container) }
    }

    private mutating func look(at rows: CheckRows, _ paths: UnsafeBufferPointer<UInt8>, groups: ArraySlice<Range<Int>>,
                               container: AppContainer) {
        for group in groups {
            let directory = rows.directory(rows.entries[group.lowerBound])
            do {
                try container.withDirectory(directory) { held in
                    for index in group { look(at: index, rows.entries[index], in: held, paths) }
                }
            } catch {
                failure = (directory, "\(error)")
                return
            }
        }
    }

    private mutating func look(at index: Int, _ entry: CheckRows.Entry, in directory: FileDescriptor?,
                               _ paths: UnsafeBufferPointer<UInt8>) {
        let name = UnsafeBufferPointer(rebasing: paths[entry.start + entry.slash + 1..<entry.start + entry.count])
        // lstat beneath the held directory: a link is reported as a link,
        // never followed. A failed look is a missing file, as before.
        let status = (try? directory?.statusIfPresent(ofNameBytes: name)) ?? nil
        guard let status else {
            findings.append(Finding(entry: index, reason: .missing))
            return
        }
        let found = Int64(status.size)
        let reason: CacheProblem.Reason? = !status.isRegularFile ? .notAFile
            : found != entry.size ? .truncated
            : Int64(status.inode) != entry.inode || status.modificationNanoseconds != entry.modified ? .changed
            : nil
        if let reason {
            findings.append(Finding(entry: index, reason: reason, foundSize: found))
        } else {
            healthy += 1
            healthyBytes += entry.size
        }
    }
}
