import Foundation

/// Callbacks waiting for changes, with a hook that tells the owner when the
/// first one arrives and the last one leaves (to start and stop watching).
final class ObserverList: @unchecked Sendable {
    private let lock = NSLock()
    private var callbacks: [Int: @Sendable (PreferencesChange) -> Void] = [:]
    private var nextToken = 0

    /// Called with `true` when the list stops being empty and `false` when
    /// it becomes empty again. Set once, before any observer is added.
    var onActivityChange: (@Sendable (Bool) -> Void)?

    /// Adds `callback`; returns the token that removes it.
    func add(_ callback: @escaping @Sendable (PreferencesChange) -> Void) -> Int {
        let (token, becameActive) = lock.withLock {
            nextToken += 1
            callbacks[nextToken] = callback
            return (nextToken, callbacks.count == 1)
        }
        if becameActive { onActivityChange?(true) }
        return token
    }

    func remove(_ token: Int) {
        let becameIdle = lock.withLock {
            callbacks.removeValue(forKey: token) != nil && callbacks.isEmpty
        }
        if becameIdle { onActivityChange?(false) }
    }

    func notify(_ change: PreferencesChange) {
        let current = lock.withLock { Array(callbacks.values) }
        for callback in current { callback(change) }
    }
}
