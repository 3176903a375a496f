import Foundation

/// The apps of a device's audit, handed to the walking threads one at a
/// time in order, and each walk's outcome in the app's place, so the audit
/// is put together in the same order however the threads ran.
///
/// `@unchecked Sendable`: every property is read and written under `lock`
/// (``results`` only once the threads are done), and `progress` is called
/// under it, so its calls never overlap.
final class AppScanQueue: @unchecked Sendable {
    private let lock = NSLock()
    private let bundleIDs: [String]
    private let progress: ((AuditProgress) -> Void)?
    private var nextIndex = 0
    private var outcomes: [Result<ScannedApp, any Error>?]

    init(_ bundleIDs: [String], progress: ((AuditProgress) -> Void)?) {
        self.bundleIDs = bundleIDs
        self.progress = progress
        outcomes = Array(repeating: nil, count: bundleIDs.count)
    }

    /// The next app to walk, after telling `progress` of it; nil when all are taken.
    func next() -> Int? {
        lock.withLock {
            guard nextIndex < bundleIDs.count else { return nil }
            let index = nextIndex
            nextIndex += 1
            progress?(AuditProgress(bundleID: bundleIDs[index], index: index, count: bundleIDs.count))
            return index
        }
    }

    /// Records the outcome of the app at `index`.
    func finish(_ index: Int, _ outcome: Result<ScannedApp, any Error>) {
        lock.withLock { outcomes[index] = outcome }
    }

    /// Every app's outcome, in order (an app no thread took, which cannot
    /// happen once they all returned, as a failure rather than a gap).
    var results: [Result<ScannedApp, any Error>] {
        lock.withLock {
            outcomes.enumerated().map { index, outcome in
                outcome ?? .failure(StorageAuditError(.unreadable, path: "", "\(bundleIDs[index]) was not walked"))
            }
        }
    }
}
