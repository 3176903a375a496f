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
