import FileSystem
import Foundation

/// A ``ContainerMigration`` running on a thread of its own (see
/// ``ContainerMigration/start(progress:)``): the caller goes on (an app
/// finishes launching) while files move, and collects the outcome with
/// ``wait()``.
public final class MigrationTask: Sendable {
    private struct State {
        var outcome: Result<MigrationReport, MigrationError>?
        var latest: MigrationProgress?
        var stopRequested = false
    }

    private let state = Locked(State())

    init() {}

    /// The last progress reported, nil before the first.
    public var progress: MigrationProgress? { state.withLock { $0.latest } }

    /// Whether the job has ended (finished, failed or stopped).
    public var isFinished: Bool { state.withLock { $0.outcome != nil } }

    /// Asks the job to stop after the item it is moving; it records where it
    /// stands and ends with ``MigrationErrorCode/stopped`` (run it again to resume).
    public func cancel() { state.withLock { $0.stopRequested = true } }

    /// Waits for the job to end and returns its report.
    ///
    /// - Throws: ``MigrationError`` the job ended with.
    public func wait() throws(MigrationError) -> MigrationReport {
        switch ended(timeout: nil) {
        case .success(let report)?: return report
        case .failure(let error)?: throw error
        case nil: throw MigrationError(.stopped, "the migration ended without an outcome")
        }
    }

    /// Waits up to `timeout` seconds; nil if the job is still running.
    public func wait(timeout: TimeInterval) throws(MigrationError) -> MigrationReport? {
        switch ended(timeout: .timeout(seconds: timeout)) {
        case .success(let report)?: return report
        case .failure(let error)?: throw error
        case nil: return nil
        }
    }

    /// The outcome once the job has ended, waiting up to `timeout` (nil:
    /// for as long as it takes); nil if it is still running then.
    private func ended(timeout: Duration?) -> Result<MigrationReport, MigrationError>? {
        state.withLock(when: { $0.outcome != nil }, timeout: timeout) { $0.outcome } ?? nil
    }

    fileprivate func update(_ progress: MigrationProgress) throws {
        let stop = state.withLock { state -> Bool in
            state.latest = progress
            return state.stopRequested
        }
        if stop { throw CancellationError() }
    }

    fileprivate func end(_ result: Result<MigrationReport, MigrationError>) {
        state.withLock { $0.outcome = result }
    }
}

extension ContainerMigration {
    /// Runs the job on a background thread and returns at once. `progress`
    /// is called on that thread with each item done; if it throws, or the
    /// task is cancelled, the job stops (and resumes when run again).
    public func start(progress: @escaping @Sendable (MigrationProgress) throws -> Void = { _ in }) -> MigrationTask {
        let task = MigrationTask()
        let job = self
        let thread = Thread {
            let result: Result<MigrationReport, MigrationError>
            do throws(MigrationError) {
                result = .success(try job.run { current in
                    try task.update(current)
                    try progress(current)
                })
            } catch {
                result = .failure(error)
            }
            task.end(result)
        }
        thread.name = "ContainerMigration"
        thread.qualityOfService = .utility
        thread.start()
        return task
    }
}
