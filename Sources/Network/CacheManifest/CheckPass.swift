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
        var detail: String?
    }

    var findings: [Finding] = []
    var healthy = 0
    var healthyBytes: Int64 = 0
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
                // A directory that cannot be opened (a link put in its
                // place, no permission): its entries are reported, and the
                // other directories are looked at all the same.
                for index in group {
                    findings.append(Finding(entry: index, reason: .unreadable, detail: "cannot open \(directory): \(error)"))
                }
            }
        }
    }

    private mutating func look(at index: Int, _ entry: CheckRows.Entry, in directory: FileDescriptor?,
                               _ paths: UnsafeBufferPointer<UInt8>) {
        let name = UnsafeBufferPointer(rebasing: paths[entry.start + entry.slash + 1..<entry.start + entry.count])
        // lstat beneath the held directory: a link is reported as a link,
        // never followed.
        let status: FileStatus?
        do { status = try directory?.statusIfPresent(ofNameBytes: name) } catch {
            findings.append(Finding(entry: index, reason: .unreadable, detail: "cannot look at it: \(error)"))
            return
        }
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
