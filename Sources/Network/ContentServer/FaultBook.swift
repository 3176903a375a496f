import FileSystem

/// The faults still to inject and the statistics, shared by every
/// connection of one server.
final class FaultBook: Sendable {
    private struct State {
        var faults: [ContentFault] = []
        var stats = ContentServerStats()
    }
    private let state = Locked(State())

    /// Adds faults; they are used in the order given.
    func add(_ faults: [ContentFault]) {
        state.withLock { $0.faults.append(contentsOf: faults) }
    }

    /// Forgets the faults and the statistics.
    func reset() {
        state.withLock { $0 = State() }
    }

    var stats: ContentServerStats { state.withLock { $0.stats } }

    /// Counts a request and takes the first fault for its path, if any.
    func take(method: String, path: String, hasRange: Bool) -> ContentFault? {
        state.withLock { state in
            state.stats.requests["\(method) \(path)", default: 0] += 1
            if hasRange { state.stats.rangeRequests += 1 }
            guard let index = state.faults.firstIndex(where: { $0.matches(path) }) else { return nil }
            let fault = state.faults[index]
            state.faults[index].times -= 1
            if state.faults[index].times <= 0 { state.faults.remove(at: index) }
            state.stats.faultsInjected[fault.kind.rawValue, default: 0] += 1
            return fault
        }
    }

    func countBody(_ bytes: Int) {
        state.withLock { $0.stats.bodyBytes += bytes }
    }
}
