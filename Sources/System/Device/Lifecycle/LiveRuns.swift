import FileSystem

/// The ``AppRun``s alive in this process, so a device can deliver
/// low-disk warnings to them, whichever `Device` value launched them. Held
/// weakly: a dropped run leaves the list. `@unchecked Sendable`: `runs` is
/// read and written only under `lock`, and an ``AppRun`` (not `Sendable`,
/// for the app delegate it holds) is only handed to the caller.
final class LiveRuns: @unchecked Sendable {
    static let shared = LiveRuns()

    private let lock = Locked(())
    private var runs: [ObjectIdentifier: WeakRun] = [:]

    private struct WeakRun {
        weak var run: AppRun?
    }

    func add(_ run: AppRun) {
        lock.withLock { _ in runs[ObjectIdentifier(run)] = WeakRun(run: run) }
    }

    func remove(_ run: AppRun) {
        lock.withLock { _ in runs[ObjectIdentifier(run)] = nil }
    }

    var all: [AppRun] {
        lock.withLock { _ in
            runs = runs.filter { $0.value.run != nil }
            return runs.values.compactMap(\.run)
        }
    }
}
