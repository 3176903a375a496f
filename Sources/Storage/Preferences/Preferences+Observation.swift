extension Preferences {
    /// Changes to the values this store reads, as they happen: sets and
    /// removals in this process, registrations, and writes by other
    /// processes (noticed by re-reading the file every
    /// ``Configuration/observationInterval`` while someone is observing,
    /// and on ``synchronize()``).
    ///
    /// With `keys`, only changes touching those keys are reported, trimmed
    /// to them. The sequence ends when the consuming task is cancelled.
    ///
    /// ```swift
    /// for await change in prefs.changes(forKeys: ["Theme"]) { apply(prefs.string(forKey: "Theme")) }
    /// ```
    public func changes(forKeys keys: Set<String>? = nil) -> AsyncStream<PreferencesChange> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1024)) { continuation in
            let forward: @Sendable (PreferencesChange) -> Void = { change in
                guard let keys else { continuation.yield(change); return }
                let touched = change.keys.intersection(keys)
                if !touched.isEmpty { continuation.yield(PreferencesChange(keys: touched, origin: change.origin)) }
            }
            let lists = [primary.observers, registrationObservers] + (global.map { [$0.observers] } ?? [])
            let tokens = lists.map { $0.add(forward) }
            continuation.onTermination = { _ in
                for (list, token) in zip(lists, tokens) { list.remove(token) }
            }
        }
    }
}
