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
    public func isRunning(_ bundleID: String) -> Bool {
        runRecord(bundleID)?.isAlive ?? false
    }

    /// The app's run record, dead or alive, if any.
    public func runRecord(_ bundleID: String) -> RunRecord? {
        try? RecordFile.read(RunRecord.self, from: layout.runRecord(bundleID))
    }

    /// The records of the apps running now (records of dead processes are skipped).
    public func runningApps() -> [RunRecord] {
        let names = (try? FileSystemPaths.entries(atPath: layout.run.path)) ?? []
        return names.filter { $0.hasSuffix(".plist") }.compactMap { name in
            guard let record = runRecord(String(name.dropLast(".plist".count))), record.isAlive else { return nil }
            return record
        }
    }

    /// Records that an app runs (for ``AppRun`` and the launcher).
    public func writeRunRecord(_ record: RunRecord) throws {
        try makeDirectories(layout.run.path, bundleID: record.bundleID)
        try RecordFile.write(record, to: layout.runRecord(record.bundleID), durability: .none)
    }

    /// Removes an app's run record (it terminated).
    public func removeRunRecord(_ bundleID: String) {
        try? FileSystemPaths.removeFile(atPath: layout.runRecord(bundleID).path)
    }

    /// Removes the records of processes that have died.
    func removeStaleRunRecords() {
        let names = (try? FileSystemPaths.entries(atPath: layout.run.path)) ?? []
        for name in names where name.hasSuffix(".plist") {
            let id = String(name.dropLast(".plist".count))
            if let record = runRecord(id), !record.isAlive { removeRunRecord(id) }
        }
    }
}
