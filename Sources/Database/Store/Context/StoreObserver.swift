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
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "StoreObserver \(path)"))
        let state = PollState(last: baseline, timer: timer)
        let nanoseconds = interval.components.seconds * 1_000_000_000 + interval.components.attoseconds / 1_000_000_000
        timer.schedule(deadline: .now() + .nanoseconds(Int(nanoseconds)), repeating: .nanoseconds(Int(nanoseconds)))
        timer.setEventHandler { [self] in
            guard let current = try? dataVersion() else {
                continuation.finish()
                return
            }
            if state.update(current) {
                continuation.yield(StoreCommitNotification(path: path, dataVersion: current, seenAt: Date()))
            }
        }
        continuation.onTermination = { _ in state.cancel() }
        timer.resume()
        return stream
    }
}

/// The last data version seen (touched only on the timer's queue) and
/// the timer, which dispatch lets any thread cancel.
private final class PollState: @unchecked Sendable {
    private var last: Int64
    private let timer: any DispatchSourceTimer

    init(last: Int64, timer: any DispatchSourceTimer) {
        self.last = last
        self.timer = timer
    }

    func cancel() { timer.cancel() }

    /// Records `current`; true when it differs from the last one.
    func update(_ current: Int64) -> Bool {
        defer { last = current }
        return current != last
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
