import FileSystem
import Foundation
import Launch

/// `run/<bundle id>.plist`: an app that is running, in this process (an
/// ``AppRun``) or as a launched process. Purge, update and uninstall
/// consult it; a record whose process has died counts as not running.
public struct RunRecord: Codable, Sendable, Hashable {
    /// The app.
    public var bundleID: String
    /// The process running it.
    public var pid: Int32
    /// The process's start time (clock ticks since boot, from `/proc`), so
    /// a reused pid is not mistaken for the app; nil where unknown.
    public var processStartTime: UInt64?
    /// The app's lifecycle state.
    public var state: AppState
    /// When the app was launched.
    public var launched: Date
    /// How it runs: `"in-process"` for an ``AppRun``, `"process"` for a
    /// launched executable.
    public var kind: String

    /// A record for `pid`, stamped with its start time.
    public init(bundleID: String, pid: Int32, state: AppState, kind: String, launched: Date = Date()) {
        self.bundleID = bundleID
        self.pid = pid
        self.processStartTime = ProcessControl.startTime(of: pid)
        self.state = state
        self.launched = launched
        self.kind = kind
    }

    /// Whether the recorded process is still alive (and is the same
    /// process): a zombie, ended but not yet collected by its parent, is not.
    public var isAlive: Bool {
        ProcessIdentity(pid: pid, startTime: processStartTime).isAlive
    }
}

extension Device {
    /// Whether the app is running: a run record names a live process.
    ///
    /// - Throws: ``DeviceError`` when a record exists but cannot be read:
    ///   a device that cannot tell must not purge, update or remove the
    ///   data of an app that may be running.
    public func isRunning(_ bundleID: String) throws -> Bool {
        try runRecord(bundleID)?.isAlive ?? false
    }

    /// The app's run record, dead or alive; nil when there is none.
    ///
    /// - Throws: ``DeviceError`` (`.io` or `.corrupt`, with the record's
    ///   path) when the record exists but cannot be read.
    public func runRecord(_ bundleID: String) throws -> RunRecord? {
        try RecordFile.read(RunRecord.self, from: layout.runRecord(bundleID))
    }

    /// The records of the apps running now (records of dead processes are skipped).
    public func runningApps() throws -> [RunRecord] {
        try runRecordNames().compactMap { id in
            guard let record = try runRecord(id), record.isAlive else { return nil }
            return record
        }
    }

    /// Records that an app runs (for ``AppRun`` and the launcher).
    public func writeRunRecord(_ record: RunRecord) throws {
        try makeDirectories(layout.run.path, bundleID: record.bundleID)
        try RecordFile.write(record, to: layout.runRecord(record.bundleID), durability: .none)
    }

    /// Removes an app's run record (it terminated). Failing to is harmless,
    /// which is why the error is dropped: a record left behind names a dead
    /// process, which ``isRunning(_:)`` reads as not running.
    public func removeRunRecord(_ bundleID: String) {
        try? FileSystemPaths.removeFile(atPath: layout.runRecord(bundleID).path)
    }

    /// Removes the records of processes that have died. A record that
    /// cannot be read stays: whether its app runs is unknown, and the
    /// next purge, update or uninstall says so with the record's path.
    func removeStaleRunRecords() throws {
        for id in try runRecordNames() {
            let record: RunRecord?
            do { record = try runRecord(id) } catch { continue }
            if let record, !record.isAlive { removeRunRecord(id) }
        }
    }

    /// The bundle ids that have a run record; none when `run/` is missing.
    private func runRecordNames() throws -> [String] {
        let names: [String]
        do { names = try FileSystemPaths.entries(atPath: layout.run.path) } catch {
            if error.isNotFound { return [] }
            throw DeviceError(.io, path: layout.run.path, "cannot list the run records").caused(by: error)
        }
        return names.filter { $0.hasSuffix(".plist") }.map { String($0.dropLast(".plist".count)) }
    }
}
