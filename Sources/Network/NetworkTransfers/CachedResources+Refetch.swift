import CacheManifest
import Foundation

/// The launch check and the background re-fetch.
extension CachedResources {
    /// The manifest against the disk, in one pass (``CacheManifest/check()``).
    public func launchCheck() throws(CacheManifestError) -> CacheCheckReport {
        try manifest.check()
    }

    /// Fetches again the files of `problems`, `concurrency` at a time. A
    /// changed file is hashed first and kept if its content still matches.
    /// Without a network nothing is attempted: the report says why, and
    /// every file stays listed as missing.
    public func refetch(_ problems: [CacheProblem], concurrency: Int = 8,
                        progress: (@Sendable (RefetchProgress) -> Void)? = nil) async -> RefetchReport {
        var report = RefetchReport()
        var toFetch: [CacheProblem] = []
        // The recorded entries, read once for the batch rather than once a file.
        let wanted = Set(problems.map(\.path))
        let recorded = Dictionary(((try? manifest.all()) ?? []).filter { wanted.contains($0.path) }.map { ($0.path, $0) },
                                  uniquingKeysWith: { first, _ in first })
        for problem in problems {
            if problem.reason == .changed, let entry = recorded[problem.path],
               let digest = try? ContentDigest.sha256(ofFileAt: problem.path, in: container), digest == entry.sha256 {
                try? manifest.refreshIdentity(of: entry)
                report.confirmed.append(problem.path)
            } else {
                toFetch.append(problem)
            }
        }
        if toFetch.isEmpty { return report }
        if case .failure(let unavailable) = downloader.conditions() {
            report.unavailable = unavailable.reason
            report.failures = toFetch.map {
                .init(path: $0.path, url: $0.url, error: NetworkError(.unavailable(unavailable.reason), url: $0.url, attempts: 0, unavailable.message))
            }
            return report
        }
        let total = problems.count
        var done = report.confirmed.count
        var fetched: [CachedResource] = []
        await withTaskGroup(of: (CacheProblem, Result<CachedResource, NetworkError>).self) { group in
            var pending = toFetch[...]
            func startNext() {
                guard let problem = pending.popFirst() else { return }
                group.addTask {
                    let entry = recorded[problem.path]
                    // No flush per file: one flush of the file system after
                    // the batch, before the manifest records it.
                    let request = DownloadRequest(url: URL(string: problem.url) ?? URL(fileURLWithPath: "/"), destination: problem.path,
                                                  expectedSHA256: entry?.sha256, expectedSize: entry?.size, durability: .none)
                    do throws(NetworkError) {
                        return (problem, .success(try await self.fetch(request, recording: false, progress: nil)))
                    } catch {
                        return (problem, .failure(error))
                    }
                }
            }
            for _ in 0..<max(1, concurrency) { startNext() }
            for await (problem, outcome) in group {
                switch outcome {
                case .success(let resource):
                    fetched.append(resource)
                    report.bytes += resource.size
                case .failure(let error):
                    report.failures.append(.init(path: problem.path, url: problem.url, error: error))
                }
                done += 1
                progress?(RefetchProgress(done: done, total: total, bytes: report.bytes))
                startNext()
            }
        }
        // The files are in place; flush them all at once, then record them.
        // A crash before the record leaves the old entries, which the next
        // check finds changed and hashes: nothing is trusted unflushed.
        do {
            if !fetched.isEmpty { try container.synchronizeFileSystem() }
            try manifest.record(fetched)
            report.fetched = fetched.map(\.path).sorted()
        } catch {
            for resource in fetched {
                report.failures.append(.init(path: resource.path, url: resource.url,
                                             error: NetworkError(.file, url: resource.url, "cannot record the file: \(error)")))
            }
        }
        report.failures.sort { $0.path < $1.path }
        return report
    }

    /// The launch check, then the re-fetch of whatever it found.
    public func restoreMissing(concurrency: Int = 8,
                               progress: (@Sendable (RefetchProgress) -> Void)? = nil) async throws(CacheManifestError) -> RefetchReport {
        let check = try launchCheck()
        return await refetch(check.problems, concurrency: concurrency, progress: progress)
    }
}
