import FileSystem
import Foundation
import GRDB

/// Watches a store for commits made by any other connection, in this
/// process or another one, and reports each as a ``StoreCommitNotification``.
///
/// It polls `PRAGMA data_version` on a connection of its own: SQLite bumps
/// that number on a connection whenever another connection commits to the
/// file, which is exactly "someone else changed the store" — GRDB's own
/// observation sees only the changes made through its connection (GRDB
/// issue #702). Polling every 20 ms keeps a change's latency well under
/// 100 ms at a negligible cost (one page-cache lookup per poll).
public final class StoreObserver: Sendable {
    public let path: String
    public let interval: Duration
    private let connection: DatabaseQueue

    /// Opens the observer's connection to a store opened read-write elsewhere.
    public init(path: String, interval: Duration = .milliseconds(20)) throws(StoreError) {
        self.path = path
        self.interval = interval
        var configuration = Configuration()
        configuration.busyMode = .timeout(PersistentStore.busyTimeout)
        configuration.readonly = true
        do {
            connection = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw StoreError(.io, "cannot open an observing connection", path: path).caused(by: error)
        }
    }

    /// The store's data version as this connection sees it now.
    public func dataVersion() throws(StoreError) -> Int64 {
        do {
            return try connection.inDatabase { db in try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
        } catch {
            throw StoreError(.io, "cannot read the data version", path: path).caused(by: error)
        }
    }

    /// A notification for each commit seen after this call (several
    /// commits between two polls make one notification). The stream ends
    /// when the task iterating it is cancelled or the observer cannot read
    /// the store.
    public func commits() -> AsyncStream<StoreCommitNotification> {
        let (stream, continuation) = AsyncStream<StoreCommitNotification>.makeStream()
        // The baseline is read now, not when the polling task first runs:
        // a commit made in between must count as a change.
        let baseline = (try? dataVersion()) ?? 0
        // A dispatch timer on a queue of its own, not a task: on a busy
        // machine the cooperative pool may be held by synchronous work for
        // far longer than the 100 ms a change may take to be seen.
        let last = Locked(baseline)
        let nanoseconds = interval.components.seconds * 1_000_000_000 + interval.components.attoseconds / 1_000_000_000
        let timer = RepeatingTimer(label: "StoreObserver \(path)", interval: .nanoseconds(Int(nanoseconds))) { [self] in
            guard let current = try? dataVersion() else {
                continuation.finish()
                return
            }
            let changed = last.withLock { last in
                defer { last = current }
                return current != last
            }
            if changed {
                continuation.yield(StoreCommitNotification(path: path, dataVersion: current, seenAt: Date()))
            }
        }
        continuation.onTermination = { _ in timer.cancel() }
        timer.start()
        return stream
    }
}

/// Another connection committed to the store.
public struct StoreCommitNotification: Sendable, Hashable {
    public var path: String
    /// `PRAGMA data_version` after the commit(s), as the observer saw it.
    public var dataVersion: Int64
    /// When the observer noticed.
    public var seenAt: Date
}
