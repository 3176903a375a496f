import Container
import Dispatch
import FileSystem
import Foundation
import GRDB

/// The launch check: the manifest against the disk, in one pass.
extension CacheManifest {
    /// Compares every entry with the file at its path: missing, a size
    /// that differs, or an inode or modification time that differs (the
    /// file was rewritten: ``CacheProblem/Reason/changed``). It reads the
    /// entries once and lists the cache directories once; it hashes
    /// nothing (``verify(progress:)`` does). The directories are split
    /// between the available cores; the report is in path order whatever
    /// the split.
    public func check() throws(CacheManifestError) -> CacheCheckReport {
        // Paths stay bytes in one buffer; a String is made for a directory
        // and for a reported path only. Character indexing of every path
        // (grapheme breaking), then a String per path and per name, cost as
        // much as the `fstatat` calls.
        let rows: CheckRows = try read("read the entries") { db in try CheckRows(db) }
        var groups: [Range<Int>] = []
        var index = 0
        while index < rows.entries.count {
            let end = rows.groupEnd(from: index)
            groups.append(index..<end)
            index = end
        }
        let passes = Self.lookInParallel(rows, groups: groups, container: container)
        var report = CacheCheckReport(checked: rows.entries.count + rows.rejected.count)
        for pass in passes {
            report.healthy += pass.healthy
            report.healthyBytes += pass.healthyBytes
            for finding in pass.findings {
                let entry = rows.entries[finding.entry]
                report.problems.append(CacheProblem(path: rows.path(entry), url: "", reason: finding.reason,
                                                    expectedSize: entry.size, foundSize: finding.foundSize, detail: finding.detail))
            }
        }
        if !report.problems.isEmpty {
            let urls: [String: String] = try read("read the URLs") { db in
                Dictionary(try Row.fetchAll(db, sql: "SELECT path, url FROM resource WHERE path IN (SELECT value FROM json_each(?))",
                                            arguments: [String(decoding: try JSONEncoder().encode(report.problems.map(\.path)), as: UTF8.self)])
                    .map { (String.fromDatabaseValue($0[0]) ?? "", String.fromDatabaseValue($0[1]) ?? "") },
                           uniquingKeysWith: { first, _ in first })
            }
            for index in report.problems.indices { report.problems[index].url = urls[report.problems[index].path] ?? "" }
        }
        // The rows not looked at, in path order among the others.
        if !rows.rejected.isEmpty {
            report.problems += rows.rejected
            report.problems.sort { ($0.path, $0.row ?? 0) < ($1.path, $1.row ?? 0) }
        }
        return report
    }

    /// The groups cut into one consecutive run per available core, of about
    /// as many entries each, looked at on separate threads. 74 % of a
    /// single-threaded check was in the kernel (path lookups, which do not
    /// lock one another in different names), so two cores nearly halve it.
    /// The passes come back in the runs' order, which is path order.
    static func lookInParallel(_ rows: CheckRows, groups: [Range<Int>], container: AppContainer) -> [CheckPass] {
        let runs = splitIntoRuns(groups, count: min(ProcessInfo.processInfo.activeProcessorCount, groups.count))
        guard runs.count > 1 else { return runs.map { CheckPass(rows, groups: groups[$0], container: container) } }
        // Each run stores its pass once, at its end: two lock operations in all.
        let passes = Locked([CheckPass](repeating: CheckPass(), count: runs.count))
        DispatchQueue.concurrentPerform(iterations: runs.count) { run in
            let pass = CheckPass(rows, groups: groups[runs[run]], container: container)
            passes.withLock { $0[run] = pass }
        }
        return passes.withLock { $0 }
    }

    /// Consecutive runs of `groups`, `count` of them at most, each ending
    /// where the entries before it reach their share of the total.
    static func splitIntoRuns(_ groups: [Range<Int>], count: Int) -> [Range<Int>] {
        guard count > 1, let total = groups.last?.upperBound else { return groups.isEmpty ? [] : [0..<groups.count] }
        var runs: [Range<Int>] = []
        var start = 0
        for (index, group) in groups.enumerated() where runs.count < count - 1 {
            if group.upperBound * count >= total * (runs.count + 1) {
                runs.append(start..<index + 1)
                start = index + 1
            }
        }
        if start < groups.count { runs.append(start..<groups.count) }
        return runs
    }
}
