import Container

/// The thorough check, and pinning.
extension CacheManifest {
    /// ``check()``, then hashes every file that passed and every changed
    /// one: a file whose SHA-256 differs is ``CacheProblem/Reason/corrupt``.
    /// A changed file whose hash still matches is recorded afresh (its new
    /// inode and time) and counts as healthy. A file that cannot be read
    /// (it became a link or a FIFO since the check, say) is reported
    /// ``CacheProblem/Reason/unreadable`` and the others are hashed all the
    /// same. `progress` gets (done, total).
    public func verify(progress: ((Int, Int) -> Void)? = nil) throws(CacheManifestError) -> CacheCheckReport {
        var report = try check()
        // Damaged rows are already in the check's report.
        let entries = try readableEntries().entries
        let suspects = Set(report.problems.filter { $0.reason == .changed }.map(\.path))
        let absent = Set(report.problems.filter { $0.reason != .changed }.map(\.path))
        report.problems.removeAll { $0.reason == .changed }
        report.healthy = 0
        report.healthyBytes = 0
        var done = 0
        let total = entries.count(where: { !absent.contains($0.path) })
        for entry in entries where !absent.contains(entry.path) {
            done += 1
            defer { progress?(done, total) }
            let digest: String
            do throws(CacheManifestError) { digest = try ContentDigest.sha256(ofRegularFileAt: entry.path, in: container) } catch {
                report.problems.append(CacheProblem(path: entry.path, url: entry.url, reason: .unreadable,
                                                    expectedSize: entry.size, detail: error.message))
                continue
            }
            if digest == entry.sha256 {
                report.healthy += 1
                report.healthyBytes += entry.size
                if suspects.contains(entry.path) {
                    do throws(CacheManifestError) { try refreshIdentity(of: entry) } catch {
                        report.problems.append(CacheProblem(path: entry.path, url: entry.url, reason: .unreadable,
                                                            expectedSize: entry.size, detail: error.message))
                    }
                }
            } else {
                report.problems.append(CacheProblem(path: entry.path, url: entry.url, reason: .corrupt,
                                                    expectedSize: entry.size, foundSize: entry.size))
            }
        }
        report.problems.sort { ($0.path, $0.row ?? 0) < ($1.path, $1.row ?? 0) }
        return report
    }

    /// Records the inode and time the file has now, so the next quick
    /// check trusts it.
    public func refreshIdentity(of entry: CachedResource) throws(CacheManifestError) {
        let info: ContainerFileInfo
        do { info = try container.attributes(entry.path) } catch {
            throw CacheManifestError(.file, path: entry.path, "cannot read attributes").caused(by: error)
        }
        var updated = entry
        updated.inode = Int64(info.inode)
        updated.modifiedNanoseconds = info.modificationNanoseconds
        try record(updated)
    }

    /// Makes a recorded file must-keep, as the iOS 5.0.1 rules say for
    /// data the user needs offline (the pilot's maps): it moves to
    /// `Library/Application Support/Pinned/…` with the do-not-back-up flag,
    /// so a purge cannot remove it and a backup does not carry it. Returns
    /// the new entry.
    @discardableResult
    public func pin(path: String) throws(CacheManifestError) -> CachedResource {
        guard var entry = try resource(atPath: path) else {
            throw CacheManifestError(.notRecorded, path: path, "the manifest has no entry for this file")
        }
        if entry.pinned { return entry }
        let cachesPrefix = ContainerDirectory.caches.relativePath + "/"
        guard path.hasPrefix(cachesPrefix) else {
            throw CacheManifestError(.invalidPath, path: path, "only files in Library/Caches can be pinned")
        }
        let destination = Self.pinnedDirectory + "/" + path.dropFirst(cachesPrefix.count)
        do {
            let parent = destination.split(separator: "/").dropLast().joined(separator: "/")
            try container.createDirectory(parent)
            try container.setExcludedFromBackup(true, at: Self.pinnedDirectory)
            try container.replaceItem(at: destination, withItemAt: path)
            try container.setExcludedFromBackup(true, at: destination)
        } catch {
            throw CacheManifestError(.file, path: path, "cannot move to \(destination)").caused(by: error)
        }
        try write("pin \(path)") { db in
            _ = try CachedResource.deleteOne(db, key: path)
            entry.path = destination
            entry.pinned = true
            try entry.save(db)
        }
        return entry
    }
}
