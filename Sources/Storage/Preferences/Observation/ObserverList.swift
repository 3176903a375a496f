import FileSystem

/// Callbacks waiting for changes, with a hook that tells the owner when the
/// first one arrives and the last one leaves (to start and stop watching).
final class ObserverList: Sendable {
    private struct State {
        var callbacks: [Int: @Sendable (PreferencesChange) -> Void] = [:]
        var nextToken = 0
        var onActivityChange: (@Sendable (Bool) -> Void)?
    }

    private let state = Locked(State())

    /// Called with `true` when the list stops being empty and `false` when
    /// it becomes empty again. Set once, before any observer is added.
    var onActivityChange: (@Sendable (Bool) -> Void)? {
        get { state.withLock { $0.onActivityChange } }
        set { state.withLock { $0.onActivityChange = newValue } }
    }

    /// Adds `callback`; returns the token that removes it.
    func add(_ callback: @escaping @Sendable (PreferencesChange) -> Void) -> Int {
        let (token, becameActive, hook) = state.withLock { state in
            state.nextToken += 1
            state.callbacks[state.nextToken] = callback
            return (state.nextToken, state.callbacks.count == 1, state.onActivityChange)
        }
        if becameActive { hook?(true) }
        return token
    }

    func remove(_ token: Int) {
        let (becameIdle, hook) = state.withLock { state in
            (state.callbacks.removeValue(forKey: token) != nil && state.callbacks.isEmpty, state.onActivityChange)
        }
        if becameIdle { hook?(false) }
    }

    func notify(_ change: PreferencesChange) {
        let current = state.withLock { Array($0.callbacks.values) }
        for callback in current { callback(change) }
    }
}
