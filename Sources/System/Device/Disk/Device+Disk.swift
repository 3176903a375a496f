import Container
import FileSystem
import Foundation

extension Device {
    /// The device's capacity and free space: the simulated capacity less
    /// what the device directory holds (capped by the host's free space),
    /// or the host file system's figures from `statvfs`.
    public func freeSpace() throws -> DiskSpace {
        let host: FileSystemSpace
        do { host = try FileSystemPaths.space(atPath: root.path) } catch {
            throw DeviceError(error, path: root.path, "read the file system's free space")
        }
        guard let capacity else {
            return DiskSpace(total: host.total, free: host.available, isSimulated: false,
                             level: thresholds.level(free: host.available))
        }
        let used: UInt64
        do { used = try FileSystemPaths.measureTree(atPath: root.path).bytes } catch {
            throw DeviceError(error, path: root.path, "measure the device")
        }
        let free = min(capacity > used ? capacity - used : 0, host.available)
        return DiskSpace(total: capacity, free: free, isSimulated: true, level: thresholds.level(free: free))
    }

    /// Checks the free space and acts like iOS: below the warning level,
    /// every running in-process app of this device gets
    /// `applicationDidReceiveLowDiskWarning`; below the critical level the
    /// device also purges (``purge(progress:)``). Returns the space before
    /// any purge and the purge's report, if one ran.
    @discardableResult
    public func checkDiskSpace() throws -> (space: DiskSpace, purge: PurgeReport?) {
        let space = try freeSpace()
        guard space.level >= .low else { return (space, nil) }
        for run in LiveRuns.shared.all where run.device.root.standardizedFileURL == root.standardizedFileURL {
            try run.receiveLowDiskWarning(space)
        }
        return (space, space.level == .critical ? try purge() : nil)
    }
}

/// iOS 5's cleaner. When space is low the system empties `Library/Caches`
/// and `tmp` of apps that are not running, never of a running one; and the
/// same folders of an app group's shared container when none of the
/// group's apps is running (the group's rules table says which).
///
/// The walk is descriptor-based (`openat`, `readdir`, `fstatat`,
/// `unlinkat`; see FileSystem's `removeContents`): one `fstatat` and one
/// `unlinkat` per file, no path strings, so it runs close to `rm -rf`.
extension Device {
    /// Empties Caches and tmp of every installed app that is not running,
    /// and of every app group none of whose apps is running (the folders
    /// themselves stay), and reports what went. `progress` is
    /// called every few thousand entries; when given, the entries are
    /// counted first so it can report a total.
    @discardableResult
    public func purge(progress: ((PurgeProgress) -> Void)? = nil) throws -> PurgeReport {
        try clean(caches: true, progress: progress)
    }

    /// Empties, in the apps that are not running, the directories the rules
    /// table marks purgeable when the disk is low (`Library/Caches` and
    /// `tmp`), or with `caches` false those it marks emptied at boot (`tmp`).
    func clean(caches: Bool, progress: ((PurgeProgress) -> Void)?) throws -> PurgeReport {
        let registry = try readRegistry()
        var report = PurgeReport(apps: [], skippedRunning: [])
        let column: KeyPath<DirectoryRules, Bool> = caches ? \.purgeableWhenDiskLow : \.emptiedAtBoot
        var targets: [(bundleID: String, directories: [URL], isGroup: Bool)] = []
        var running: Set<String> = []
        for id in registry.apps.keys.sorted() {
            guard let record = registry.apps[id] else { continue }
            if try isRunning(id) {
                report.skippedRunning.append(id)
                running.insert(id)
                continue
            }
            let data = layout.dataContainer(record.dataUUID)
            let directories = StorageRules.directories(where: column, in: .app)
                .map { data.appendingPathComponent($0.relativePath, isDirectory: true) }
            targets.append((id, directories, false))
        }
        for group in registry.groups.keys.sorted() {
            guard let uuid = registry.groups[group] else { continue }
            let members = registry.apps.filter { $0.value.entitlements.applicationGroups.contains(group) }.keys
            if members.contains(where: running.contains) {
                report.skippedRunningGroups.append(group)
                continue
            }
            let shared = layout.groupContainer(uuid)
            // A group's tmp exists only when its apps made one.
            let directories = try StorageRules.directories(where: column, in: .group)
                .map { shared.appendingPathComponent($0.relativePath, isDirectory: true) }
                .filter { directory in
                    do throws(FileSystemError) { return try FileSystemPaths.status(atPath: directory.path) != nil } catch {
                        throw DeviceError(error, path: directory.path, "look at the group's \(directory.lastPathComponent)")
                    }
                }
            targets.append((group, directories, true))
        }
        var total: Int?
        if progress != nil {
            var count = 0
            for url in targets.flatMap(\.directories) {
                do {
                    let tally = try FileSystemPaths.measureTree(atPath: url.path)
                    count += tally.files + tally.directories
                } catch {
                    throw DeviceError(error, path: url.path, "count the files to purge")
                }
            }
            total = count
        }
        var done = 0
        var bytesDone: UInt64 = 0
        for target in targets {
            var app = PurgeReport.AppPurge(bundleID: target.bundleID, files: 0, directories: 0, bytes: 0)
            for directory in target.directories {
                let base = done
                let baseBytes = bytesDone
                let tally: TreeTally
                do {
                    tally = try FileSystemPaths.removeContents(atPath: directory.path, progress: progress.map { report in
                        { tally in
                            report(PurgeProgress(removed: base + tally.files + tally.directories, total: total,
                                                 bytes: baseBytes + tally.bytes, bundleID: target.bundleID))
                        }
                    })
                } catch {
                    throw DeviceError(error, bundleID: target.bundleID, path: directory.path, "purge \(directory.lastPathComponent)")
                }
                app.files += tally.files
                app.directories += tally.directories
                app.bytes += tally.bytes
                done += tally.files + tally.directories
                bytesDone += tally.bytes
            }
            if target.isGroup { report.groups.append(app) } else { report.apps.append(app) }
        }
        progress?(PurgeProgress(removed: done, total: total, bytes: bytesDone, bundleID: targets.last?.bundleID ?? ""))
        return report
    }
}
