import FileSystem

/// The apps of a device's audit, handed to the walking threads one at a
/// time in order, and each walk's outcome in the app's place, so the audit
/// is put together in the same order however the threads ran.
///
/// `progress` is called under the lock that hands out the apps, so its
/// calls never overlap and come in the apps' order.
final class AppScanQueue: Sendable {
    private struct State {
        var nextIndex = 0
        var outcomes: [Result<ScannedApp, any Error>?]
    }

    private let bundleIDs: [String]
    private let progress: SerializedCallback<AuditProgress>?
    private let state: Locked<State>

    init(_ bundleIDs: [String], progress: ((AuditProgress) -> Void)?) {
        self.bundleIDs = bundleIDs
        self.progress = progress.map(SerializedCallback.init)
        state = Locked(State(outcomes: Array(repeating: nil, count: bundleIDs.count)))
    }

    /// The next app to walk, after telling `progress` of it; nil when all are taken.
    func next() -> Int? {
        state.withLock { state in
            guard state.nextIndex < bundleIDs.count else { return nil }
            let index = state.nextIndex
            state.nextIndex += 1
            progress?(AuditProgress(bundleID: bundleIDs[index], index: index, count: bundleIDs.count))
            return index
        }
    }

    /// Records the outcome of the app at `index`.
    func finish(_ index: Int, _ outcome: Result<ScannedApp, any Error>) {
        state.withLock { $0.outcomes[index] = outcome }
    }

    /// Every app's outcome, in order (an app no thread took, which cannot
    /// happen once they all returned, as a failure rather than a gap).
    var results: [Result<ScannedApp, any Error>] {
        state.withLock { state in
            state.outcomes.enumerated().map { index, outcome in
                outcome ?? .failure(StorageAuditError(.unreadable, path: "", "\(bundleIDs[index]) was not walked"))
            }
        }
    }
}
