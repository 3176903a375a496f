import Foundation

/// The ``AppRun``s alive in this process, so a device can deliver
/// low-disk warnings to them, whichever `Device` value launched them. Held
/// weakly: a dropped run leaves the list.
final class LiveRuns: @unchecked Sendable {
    static let shared = LiveRuns()

    private let lock = NSLock()
    private var runs: [ObjectIdentifier: WeakRun] = [:]

    private struct WeakRun {
        weak var run: AppRun?
    }

    func add(_ run: AppRun) {
        lock.withLock { runs[ObjectIdentifier(run)] = WeakRun(run: run) }
    }

    func remove(_ run: AppRun) {
        lock.withLock { runs[ObjectIdentifier(run)] = nil }
    }

    var all: [AppRun] {
        lock.withLock {
            runs = runs.filter { $0.value.run != nil }
            return runs.values.compactMap(\.run)
        }
    }
}
