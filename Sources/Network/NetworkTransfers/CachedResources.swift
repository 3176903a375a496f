import CacheManifest
import Container
import Foundation
import NetworkConditions

/// An app's downloaded files in `Library/Caches`, each recorded in the
/// ``CacheManifest``: fetched once, checked at launch, fetched again when a
/// purge took them, evicted least-recently-used when the cache is full, and
/// pinned to Application Support when the user must keep them.
///
/// ```swift
/// let cache = try CachedResources(container: container, downloader: downloader, sizeLimit: 50 << 20)
/// let tile = try await cache.fetch(url, as: "maps/tile-1.png")
/// let report = try cache.launchCheck()                 // at launch, one pass
/// let refetch = await cache.refetch(report.problems)   // in the background
/// ```
public actor CachedResources {
    nonisolated public let container: AppContainer
    nonisolated public let manifest: CacheManifest
    nonisolated public let downloader: Downloader
    /// The most bytes the evictable (unpinned) files may take, or nil for
    /// no limit. The limit is hard: room is made when a file is added.
    nonisolated public let sizeLimit: Int64?
    private var inFlight: [String: Task<CachedResource, any Error>] = [:]

    public init(container: AppContainer, downloader: Downloader, sizeLimit: Int64? = nil) throws(CacheManifestError) {
        self.container = container
        self.downloader = downloader
        self.sizeLimit = sizeLimit
        manifest = try CacheManifest(container: container)
    }

    /// The container path of a name inside Caches.
    public static func cachePath(_ name: String) -> String {
        ContainerDirectory.caches.relativePath + "/" + name
    }

    // MARK: Fetching

    /// Downloads `url` to `Library/Caches/<name>` and records it. Two calls
    /// for the same name at once share one download.
    @discardableResult
    public func fetch(_ url: URL, as name: String, expectedSHA256: String? = nil, expectedSize: Int64? = nil,
                      progress: (@Sendable (DownloadProgress) -> Void)? = nil) async throws(NetworkError) -> CachedResource {
        try await fetch(DownloadRequest(url: url, destination: Self.cachePath(name), expectedSHA256: expectedSHA256,
                                        expectedSize: expectedSize), progress: progress)
    }

    /// `recording: false` leaves the manifest to the caller (a batch flushes
    /// the file system once, then records every file in one transaction).
    func fetch(_ request: DownloadRequest, recording: Bool = true,
               progress: (@Sendable (DownloadProgress) -> Void)?) async throws(NetworkError) -> CachedResource {
        if let running = inFlight[request.destination] {
            do { return try await running.value } catch { throw Self.networkError(error, request) }
        }
        let task = Task { () async throws -> CachedResource in try await self.download(request, recording: recording, progress: progress) }
        inFlight[request.destination] = task
        defer { inFlight[request.destination] = nil }
        do { return try await task.value } catch { throw Self.networkError(error, request) }
    }

    private func download(_ request: DownloadRequest, recording: Bool,
                          progress: (@Sendable (DownloadProgress) -> Void)?) async throws -> CachedResource {
        var request = request
        // The cache's hard limit bounds the body while it streams, not only
        // once it has ended.
        if let sizeLimit { request.sizeLimit = min(request.sizeLimit ?? sizeLimit, sizeLimit) }
        if let size = request.expectedSize { try makeRoom(for: size, replacing: request.destination, url: request.url) }
        let result = try await downloader.download(request, into: container, progress: progress)
        try makeRoom(for: result.size, replacing: request.destination, url: request.url, keeping: request.destination)
        let info = try container.attributes(result.path)
        let now = Date().timeIntervalSince1970
        let resource = CachedResource(
            path: result.path, url: request.url.absoluteString, etag: result.etag, lastModified: result.lastModified,
            size: result.size, sha256: result.sha256, fetchedAt: now, lastUsedAt: now, pinned: false,
            inode: Int64(info.inode), modifiedNanoseconds: info.modificationNanoseconds)
        if recording { try manifest.record(resource) }
        return resource
    }

    private static func networkError(_ error: any Error, _ request: DownloadRequest) -> NetworkError {
        if let error = error as? NetworkError { return error }
        if error is CancellationError { return NetworkError(.cancelled, url: request.url.absoluteString, "cancelled") }
        return NetworkError(.file, url: request.url.absoluteString, "cannot store \(request.destination)", underlying: error)
    }

    // MARK: Using

    /// The entry for a cached name, if its file is there; it is marked used.
    /// A recorded file that is gone is forgotten and reported as absent (a
    /// hit is never claimed for a missing file).
    public func resource(named name: String) throws(CacheManifestError) -> CachedResource? {
        let path = Self.cachePath(name)
        let pinnedPath = CacheManifest.pinnedDirectory + "/" + name
        for candidate in [path, pinnedPath] {
            guard let entry = try manifest.resource(atPath: candidate) else { continue }
            guard let info = try? container.attributes(candidate), Int64(info.size) == entry.size, !info.isDirectory else {
                return nil  // gone or truncated: the launch check lists it for a re-fetch
            }
            try manifest.touch(path: candidate)
            return entry
        }
        return nil
    }

    /// Makes a cached file must-keep (``CacheManifest/pin(path:)``).
    @discardableResult
    public func pin(named name: String) throws(CacheManifestError) -> CachedResource {
        try manifest.pin(path: Self.cachePath(name))
    }

    // MARK: Eviction

    /// Evicts least-recently-used unpinned files until `incoming` more bytes
    /// fit under the limit. The entry being replaced does not count, and
    /// `keeping` (the file just downloaded) is never evicted.
    private func makeRoom(for incoming: Int64, replacing destination: String, url: URL, keeping: String? = nil) throws {
        guard let sizeLimit else { return }
        guard incoming <= sizeLimit else {
            if let keeping { try? container.removeItem(keeping) }
            throw NetworkError(.exceedsCacheLimit, url: url.absoluteString,
                               "\(incoming) bytes is more than the cache limit of \(sizeLimit) bytes")
        }
        var used = try manifest.evictableBytes()
        if let old = try manifest.resource(atPath: destination), !old.pinned { used -= old.size }
        guard used + incoming > sizeLimit else { return }
        for victim in try manifest.evictionOrder() where victim.path != destination && victim.path != keeping {
            try? container.removeItem(victim.path)
            try manifest.forget(path: victim.path)
            used -= victim.size
            if used + incoming <= sizeLimit { break }
        }
    }
}

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
    ///
    /// The URLs come from the manifest, which the app can write, so each
    /// download goes through `hostPolicy`: when it lists no origins, the
    /// manifest's own hosts at this moment are the allowed ones (a redirect
    /// elsewhere is refused), and private or link-local addresses are
    /// refused unless the policy allows them. A row that cannot be fetched
    /// (damaged, a path the manifest may not own, an URL that does not
    /// parse) is a failure of its own; the others are fetched.
    public func refetch(_ problems: [CacheProblem], concurrency: Int = 8, hostPolicy: HostPolicy = HostPolicy(),
                        progress: (@Sendable (RefetchProgress) -> Void)? = nil) async -> RefetchReport {
        var report = RefetchReport()
        var toFetch: [CacheProblem] = []
        // The recorded entries, read once for the batch rather than once a file.
        let wanted = Set(problems.map(\.path))
        let readable: [CachedResource]
        do { readable = try manifest.readableEntries().entries } catch {
            report.failures = problems.map {
                .init(path: $0.path, url: $0.url, error: NetworkError(.file, url: $0.url, attempts: 0, "cannot read the manifest", underlying: error))
            }
            return report
        }
        var manifestPolicy = hostPolicy
        if manifestPolicy.allowedOrigins == nil { manifestPolicy.allowedOrigins = HostPolicy.origins(of: readable.map(\.url)) }
        let policy = manifestPolicy
        let recorded = Dictionary(readable.filter { wanted.contains($0.path) }.map { ($0.path, $0) },
                                  uniquingKeysWith: { first, _ in first })
        for problem in problems {
            if let refusal = Self.unfetchable(problem, recorded: recorded[problem.path]) {
                report.failures.append(.init(path: problem.path, url: problem.url, error: refusal))
            } else if problem.reason == .changed, let entry = recorded[problem.path], isUnchanged(entry) {
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
                    // The URL parsed in `unfetchable`.
                    let url = URL(string: problem.url) ?? URL(fileURLWithPath: "/")
                    let request = DownloadRequest(url: url, destination: problem.path, expectedSHA256: entry?.sha256,
                                                  expectedSize: entry?.size, durability: .none, hostPolicy: policy)
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
                                             error: NetworkError(.file, url: resource.url, "cannot record the file", underlying: error)))
            }
        }
        report.failures.sort { $0.path < $1.path }
        return report
    }

    /// The launch check, then the re-fetch of whatever it found.
    public func restoreMissing(concurrency: Int = 8, hostPolicy: HostPolicy = HostPolicy(),
                               progress: (@Sendable (RefetchProgress) -> Void)? = nil) async throws(CacheManifestError) -> RefetchReport {
        let check = try launchCheck()
        return await refetch(check.problems, concurrency: concurrency, hostPolicy: hostPolicy, progress: progress)
    }

    /// Why a problem's file cannot be fetched at all, or nil: its row is
    /// damaged or names a path the manifest may not own, or its URL is not
    /// an http(s) URL with a host.
    private static func unfetchable(_ problem: CacheProblem, recorded: CachedResource?) -> NetworkError? {
        switch problem.reason {
        case .malformedRow, .invalidPath:
            return NetworkError(.invalidRequest, url: problem.url, attempts: 0,
                                "the manifest's row is not fetched: \(problem.detail ?? problem.reason.rawValue)")
        case .missing, .truncated, .changed, .corrupt, .notAFile, .unreadable:
            guard recorded != nil else {
                return NetworkError(.invalidRequest, url: problem.url, attempts: 0, "\(problem.path) has no readable entry")
            }
            guard let url = URL(string: problem.url), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                  HostPolicy.origin(of: url) != nil else {
                return NetworkError(.invalidRequest, url: problem.url, attempts: 0, "\(problem.path): the recorded URL is not an http(s) URL")
            }
            return nil
        }
    }

    /// Whether a changed file's content still matches its entry (then its
    /// new identity is recorded). A file that cannot be read, or whose
    /// identity cannot be recorded, is fetched again.
    private func isUnchanged(_ entry: CachedResource) -> Bool {
        do {
            guard try ContentDigest.sha256(ofRegularFileAt: entry.path, in: container) == entry.sha256 else { return false }
            try manifest.refreshIdentity(of: entry)
            return true
        } catch {
            return false
        }
    }
}
