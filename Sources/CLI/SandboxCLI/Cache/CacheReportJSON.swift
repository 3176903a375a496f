import CacheManifest
import NetworkTransfers
import TerminalText

/// What `sandbox cache status|verify --json` prints.
struct CacheStatusJSON: Encodable {
    var bundleID: String
    var entries: Int
    var pinned: Int
    var bytes: Int64
    var healthy: Int
    var problems: [CacheProblem]

    init(bundleID: String, entries: [CachedResource], report: CacheCheckReport) {
        self.bundleID = bundleID
        self.entries = entries.count
        pinned = entries.filter(\.pinned).count
        bytes = entries.reduce(0) { $0 + $1.size }
        healthy = report.healthy
        problems = report.problems
    }

    var text: String {
        var lines = ["\(bundleID): \(entries) cached files (\(pinned) pinned), \(bytes) bytes; \(healthy) as recorded, \(problems.count) to fetch again"]
        for problem in problems {
            var line = "  \(problem.reason.rawValue): \(TerminalText.escape(problem.path)) <- \(TerminalText.escape(problem.url))"
            if let detail = problem.detail { line += " (\(TerminalText.escape(detail)))" }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}

/// What `sandbox cache refetch --json` prints.
struct CacheRefetchJSON: Encodable {
    struct Failure: Encodable {
        var path: String
        var url: String
        var error: String
    }
    var bundleID: String
    var fetched: [String]
    var confirmed: [String]
    var failures: [Failure]
    var bytes: Int64
    var unavailable: String?

    init(bundleID: String, report: RefetchReport) {
        self.bundleID = bundleID
        fetched = report.fetched
        confirmed = report.confirmed
        failures = report.failures.map { Failure(path: $0.path, url: $0.url, error: $0.error.message) }
        bytes = report.bytes
        unavailable = report.unavailable?.rawValue
    }

    var text: String {
        var lines = ["\(bundleID): \(fetched.count) fetched again (\(bytes) bytes), \(confirmed.count) confirmed, \(failures.count) still missing"]
        if let unavailable { lines.append("  no network (\(unavailable)): nothing was attempted") }
        for failure in failures { lines.append("  missing: \(TerminalText.escape(failure.path)): \(TerminalText.escape(failure.error))") }
        return lines.joined(separator: "\n")
    }
}
