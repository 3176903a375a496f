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
