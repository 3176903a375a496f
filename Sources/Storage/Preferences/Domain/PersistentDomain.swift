import FileSystem
import Foundation
import OrderedCollections
import PropertyList

/// The keys and values of one domain, in file order.
typealias DomainValues = OrderedDictionary<String, PropertyListValue>

/// One preferences file in memory: what the file last held, the keys this
/// process changed since its last flush, and the values they give together.
///
/// A flush never writes this process's idea of the whole domain. Under the
/// domain's inter-process lock it re-reads the file, applies only the keys
/// this process set or removed, and replaces the file with the result, so
/// two processes that write different keys never lose each other's.
final class PersistentDomain: Sendable {
    let storage: any DomainStorage
    private let coalescingDelay: TimeInterval?
    private let observationInterval: TimeInterval

    /// What the domain holds in memory, guarded by its lock.
    private struct State {
        /// The file's values with this process's unflushed changes applied.
        var values: DomainValues = [:]
        /// The file's values as last read or written.
        var disk: DomainValues = [:]
        /// The bytes `disk` came from (`nil`: there was no file).
        var diskBytes: Data?
        /// Keys changed here and not yet flushed, each with the number of its
        /// latest change, so a change made during a flush stays dirty.
        var dirty: [String: UInt64] = [:]
        var changeCount: UInt64 = 0
        var flushScheduled = false
        var statistics = PreferencesStatistics()
        var problem: PreferencesError?
        /// The poll for other processes' writes, while anyone observes.
        var watcher: RepeatingTimer?

        /// Marks `key` changed by this process, as the latest change.
        mutating func markDirty(_ key: String) {
            changeCount &+= 1
            dirty[key] = changeCount
        }

        /// Recomputes `values` as `disk` plus the dirty keys; returns the keys
        /// whose value changed.
        mutating func adoptDisk() -> Set<String> {
            let old = values
            var new = disk
            for key in dirty.keys {
                if let value = old[key] { new[key] = value } else { new.removeValue(forKey: key) }
            }
            values = new
            var changed = Set<String>()
            for (key, value) in old where new[key] != value { changed.insert(key) }
            for (key, _) in new where old[key] == nil { changed.insert(key) }
            return changed
        }
    }

    private let state: Locked<State>

    /// Serialises flushes and reloads within this process; other processes
    /// are kept out by the storage's file lock.
    private let io = Locked(())

    /// Callbacks for changes to this domain.
    let observers = ObserverList()

    init(storage: any DomainStorage, coalescingDelay: TimeInterval?, observationInterval: TimeInterval) {
        self.storage = storage
        self.coalescingDelay = coalescingDelay
        self.observationInterval = observationInterval
        var initial = State()
        // Writers killed between writing and renaming leave their temporary
        // files; opening the domain clears those old enough to be sure no
        // writer is still at work (a failure here costs only disk space).
        try? storage.removeStaleTemporaries()
        do {
            if let bytes = try storage.read() {
                let decoded = try Self.decode(bytes, path: storage.path)
                initial.disk = decoded
                initial.values = decoded
                initial.diskBytes = bytes
            }
        } catch let error as PreferencesError {
            // An unreadable file reads as an empty domain rather than a crash
            // at every launch; the error stays visible in `lastProblem`, and
            // the next flush replaces the file.
            initial.problem = error
        } catch {
            initial.problem = PreferencesError(.storageFailed, path: storage.path, "cannot read the domain").caused(by: error)
        }
        state = Locked(initial)
        observers.onActivityChange = { [weak self] active in self?.setWatching(active) }
    }

    deinit {
        state.withLock { $0.watcher }?.cancel()
        // The last chance to save what is pending; a deinit has no one to
        // tell of a failure. A caller that must know flushes first (the
        // public synchronize and flush throw).
        _ = try? flush(durability: .atomic)
    }

    // MARK: Reading

    func value(forKey key: String) -> PropertyListValue? {
        state.withLock { $0.values[key] }
    }

    var snapshot: DomainValues {
        state.withLock { $0.values }
    }

    var currentStatistics: PreferencesStatistics {
        state.withLock { $0.statistics }
    }

    var lastProblem: PreferencesError? {
        state.withLock { $0.problem }
    }

    var hasUnflushedChanges: Bool {
        state.withLock { !$0.dirty.isEmpty }
    }

    // MARK: Changing

    /// Sets (`value` non-nil) or removes `key`, and schedules a coalesced flush.
    func set(_ value: PropertyListValue?, forKey key: String) {
        change { state in
            state.markDirty(key)
            let old = state.values[key]
            if let value { state.values[key] = value } else { state.values.removeValue(forKey: key) }
            return old == value ? [] : [key]
        }
    }

    /// Replaces every key of the domain (`setPersistentDomain`), or empties it.
    func replaceAll(with newValues: DomainValues) {
        change { state in
            var changed = Set<String>()
            for (key, old) in state.values where newValues[key] != old { changed.insert(key) }
            for (key, new) in newValues where state.values[key] != new { changed.insert(key) }
            for key in state.values.keys { state.markDirty(key) }
            for key in newValues.keys { state.markDirty(key) }
            state.values = newValues
            return changed
        }
    }

    /// Runs `body` on the state under its lock (it marks the keys it
    /// changes dirty and returns those whose value changed), then tells the
    /// observers and schedules a flush.
    private func change(_ body: (inout State) -> Set<String>) {
        let (changed, schedules) = state.withLock { state in
            let changed = body(&state)
            let schedules = coalescingDelay != nil && !state.flushScheduled
            if schedules { state.flushScheduled = true }
            return (changed, schedules)
        }
        if !changed.isEmpty { observers.notify(PreferencesChange(keys: changed, origin: .thisProcess)) }
        if schedules, let coalescingDelay { scheduleFlush(after: coalescingDelay) }
    }

    private func scheduleFlush(after delay: TimeInterval) {
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self else { return }
            state.withLock { $0.flushScheduled = false }
            do {
                try flush(durability: .atomic)
            } catch let error as PreferencesError {
                state.withLock { $0.problem = error }
            } catch {
                state.withLock {
                    $0.problem = PreferencesError(.storageFailed, path: storage.path, "cannot write the domain").caused(by: error)
                }
            }
        }
    }

    // MARK: Flushing and reloading

    /// Writes this process's unflushed changes, merged key by key into the
    /// file as it is now. Does nothing and returns false when nothing changed.
    @discardableResult
    func flush(durability: PreferencesDurability) throws -> Bool {
        try io.withLock { _ in try flushHoldingIO(durability: durability) }
    }

    /// ``flush(durability:)``'s work, with `io` held.
    private func flushHoldingIO(durability: PreferencesDurability) throws -> Bool {
        let (pending, pendingValues, knownBytes, knownDisk) = state.withLock { state in
            (state.dirty, state.dirty.keys.map { ($0, state.values[$0]) }, state.diskBytes, state.disk)
        }
        guard !pending.isEmpty else { return false }
        let external: Set<String> = try storage.withExclusiveLock {
            let bytes = try storage.read()
            let changedOnDisk = bytes != knownBytes
            var merged = changedOnDisk ? decodeOrEmpty(bytes) : knownDisk
            for (key, value) in pendingValues {
                if let value { merged[key] = value } else { merged.removeValue(forKey: key) }
            }
            let output: Data
            do {
                output = try PropertyListValue.dictionary(merged).encoded(as: .binary)
            } catch {
                throw PreferencesError(.invalidValue, path: storage.path, "cannot encode the domain").caused(by: error)
            }
            try storage.write(output, durability: durability)

            return state.withLock { state in
                for (key, number) in pending where state.dirty[key] == number { state.dirty.removeValue(forKey: key) }
                state.statistics.fileWrites += 1
                state.statistics.bytesWritten += UInt64(output.count)
                state.disk = merged
                state.diskBytes = output
                state.problem = nil
                // Unchanged file: `values` already equals the merged file plus
                // the keys still dirty, so there is nothing to recompute.
                return changedOnDisk ? state.adoptDisk() : []
            }
        }
        if !external.isEmpty { observers.notify(PreferencesChange(keys: external, origin: .anotherProcess)) }
        return true
    }

    /// Re-reads the file if another process replaced it, and reports the
    /// keys whose values changed here as a result.
    @discardableResult
    func reloadIfChanged() throws -> Set<String> {
        try io.withLock { _ in try reloadHoldingIO() }
    }

    /// ``reloadIfChanged()``'s work, with `io` held.
    private func reloadHoldingIO() throws -> Set<String> {
        let bytes = try storage.read()
        guard bytes != state.withLock({ $0.diskBytes }) else { return [] }
        let newDisk: DomainValues
        do {
            newDisk = try bytes.map { try Self.decode($0, path: storage.path) } ?? [:]
        } catch let error as PreferencesError {
            state.withLock { $0.problem = error }
            return []
        }
        let changed = state.withLock { state in
            state.disk = newDisk
            state.diskBytes = bytes
            return state.adoptDisk()
        }
        if !changed.isEmpty { observers.notify(PreferencesChange(keys: changed, origin: .anotherProcess)) }
        return changed
    }

    private func decodeOrEmpty(_ bytes: Data?) -> DomainValues {
        guard let bytes else { return [:] }
        do {
            return try Self.decode(bytes, path: storage.path)
        } catch {
            // A damaged file cannot be merged with; the write that follows
            // replaces it with this process's keys.
            state.withLock { $0.problem = error as? PreferencesError }
            return [:]
        }
    }

    /// The dictionary a preferences file holds, in any plist format.
    static func decode(_ bytes: Data, path: String) throws -> DomainValues {
        let value: PropertyListValue
        do {
            value = try PropertyListValue(data: bytes)
        } catch {
            throw PreferencesError(.corruptFile, path: path, "not a property list").caused(by: error)
        }
        guard case .dictionary(let entries) = value else {
            throw PreferencesError(.corruptFile, path: path, "the property list is a \(value.typeName), not a dictionary")
        }
        return entries
    }

    // MARK: Watching other processes

    private func setWatching(_ active: Bool) {
        state.withLock { state in
            if active, state.watcher == nil {
                state.watcher = .domainWatcher(interval: observationInterval) { [weak self] in
                    _ = try? self?.reloadIfChanged()
                }
            } else if !active, let current = state.watcher {
                current.cancel()
                state.watcher = nil
            }
        }
    }
}
