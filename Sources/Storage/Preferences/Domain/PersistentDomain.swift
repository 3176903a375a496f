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
final class PersistentDomain: @unchecked Sendable {
    let storage: any DomainStorage
    private let coalescingDelay: TimeInterval?
    private let observationInterval: TimeInterval

    // Guarded by `stateLock`.
    private let stateLock = NSLock()
    /// The file's values with this process's unflushed changes applied.
    private var values: DomainValues = [:]
    /// The file's values as last read or written.
    private var disk: DomainValues = [:]
    /// The bytes `disk` came from (`nil`: there was no file).
    private var diskBytes: Data?
    /// Keys changed here and not yet flushed, each with the number of its
    /// latest change, so a change made during a flush stays dirty.
    private var dirty: [String: UInt64] = [:]
    private var changeCount: UInt64 = 0
    private var flushScheduled = false
    private var statistics = PreferencesStatistics()
    private var problem: PreferencesError?
    private var watcher: DomainWatcher?

    /// Serialises flushes and reloads within this process; other processes
    /// are kept out by the storage's file lock.
    private let ioLock = NSLock()

    /// Callbacks for changes to this domain.
    let observers = ObserverList()

    init(storage: any DomainStorage, coalescingDelay: TimeInterval?, observationInterval: TimeInterval) {
        self.storage = storage
        self.coalescingDelay = coalescingDelay
        self.observationInterval = observationInterval
        observers.onActivityChange = { [weak self] active in self?.setWatching(active) }
        // Writers killed between writing and renaming leave their temporary
        // files; opening the domain clears those old enough to be sure no
        // writer is still at work (a failure here costs only disk space).
        try? storage.removeStaleTemporaries()
        do {
            if let bytes = try storage.read() {
                let decoded = try Self.decode(bytes, path: storage.path)
                disk = decoded
                values = decoded
                diskBytes = bytes
            }
        } catch let error as PreferencesError {
            // An unreadable file reads as an empty domain rather than a crash
            // at every launch; the error stays visible in `lastProblem`, and
            // the next flush replaces the file.
            problem = error
        } catch {
            problem = PreferencesError(.storageFailed, path: storage.path, "cannot read the domain").caused(by: error)
        }
    }

    deinit {
        watcher?.cancel()
        // The last chance to save what is pending; a deinit has no one to
        // tell of a failure. A caller that must know flushes first (the
        // public synchronize and flush throw).
        _ = try? flush(durability: .atomic)
    }

    // MARK: Reading

    func value(forKey key: String) -> PropertyListValue? {
        stateLock.lock()
        defer { stateLock.unlock() }
        return values[key]
    }

    var snapshot: DomainValues {
        stateLock.withLock { values }
    }

    var currentStatistics: PreferencesStatistics {
        stateLock.withLock { statistics }
    }

    var lastProblem: PreferencesError? {
        stateLock.withLock { problem }
    }

    var hasUnflushedChanges: Bool {
        stateLock.withLock { !dirty.isEmpty }
    }

    // MARK: Changing

    /// Sets (`value` non-nil) or removes `key`, and schedules a coalesced flush.
    func set(_ value: PropertyListValue?, forKey key: String) {
        change { values, markDirty in
            markDirty(key)
            let old = values[key]
            if let value { values[key] = value } else { values.removeValue(forKey: key) }
            return old == value ? [] : [key]
        }
    }

    /// Replaces every key of the domain (`setPersistentDomain`), or empties it.
    func replaceAll(with newValues: DomainValues) {
        change { values, markDirty in
            var changed = Set<String>()
            for (key, old) in values where newValues[key] != old { changed.insert(key) }
            for (key, new) in newValues where values[key] != new { changed.insert(key) }
            values.keys.forEach(markDirty)
            newValues.keys.forEach(markDirty)
            values = newValues
            return changed
        }
    }

    private func change(_ body: (inout DomainValues, (String) -> Void) -> Set<String>) {
        stateLock.lock()
        let changed = body(&values) { key in
            changeCount &+= 1
            dirty[key] = changeCount
        }
        let schedules = coalescingDelay != nil && !flushScheduled
        if schedules { flushScheduled = true }
        stateLock.unlock()
        if !changed.isEmpty { observers.notify(PreferencesChange(keys: changed, origin: .thisProcess)) }
        if schedules, let coalescingDelay { scheduleFlush(after: coalescingDelay) }
    }

    private func scheduleFlush(after delay: TimeInterval) {
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self else { return }
            stateLock.withLock { flushScheduled = false }
            do {
                try flush(durability: .atomic)
            } catch let error as PreferencesError {
                stateLock.withLock { problem = error }
            } catch {
                stateLock.withLock {
                    problem = PreferencesError(.storageFailed, path: storage.path, "cannot write the domain").caused(by: error)
                }
            }
        }
    }

    // MARK: Flushing and reloading

    /// Writes this process's unflushed changes, merged key by key into the
    /// file as it is now. Does nothing and returns false when nothing changed.
    @discardableResult
    func flush(durability: PreferencesDurability) throws -> Bool {
        ioLock.lock()
        defer { ioLock.unlock() }
        let (pending, pendingValues, knownBytes, knownDisk) = stateLock.withLock {
            (dirty, dirty.keys.map { ($0, values[$0]) }, diskBytes, disk)
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

            stateLock.lock()
            defer { stateLock.unlock() }
            for (key, number) in pending where dirty[key] == number { dirty.removeValue(forKey: key) }
            statistics.fileWrites += 1
            statistics.bytesWritten += UInt64(output.count)
            disk = merged
            diskBytes = output
            problem = nil
            // Unchanged file: `values` already equals the merged file plus
            // the keys still dirty, so there is nothing to recompute.
            return changedOnDisk ? adoptDisk() : []
        }
        if !external.isEmpty { observers.notify(PreferencesChange(keys: external, origin: .anotherProcess)) }
        return true
    }

    /// Re-reads the file if another process replaced it, and reports the
    /// keys whose values changed here as a result.
    @discardableResult
    func reloadIfChanged() throws -> Set<String> {
        ioLock.lock()
        defer { ioLock.unlock() }
        let bytes = try storage.read()
        guard bytes != stateLock.withLock({ diskBytes }) else { return [] }
        let newDisk: DomainValues
        do {
            newDisk = try bytes.map { try Self.decode($0, path: storage.path) } ?? [:]
        } catch let error as PreferencesError {
            stateLock.withLock { problem = error }
            return []
        }
        let changed = stateLock.withLock {
            disk = newDisk
            diskBytes = bytes
            return adoptDisk()
        }
        if !changed.isEmpty { observers.notify(PreferencesChange(keys: changed, origin: .anotherProcess)) }
        return changed
    }

    /// Recomputes `values` as `disk` plus the dirty keys; returns the keys
    /// whose value changed. Call with `stateLock` held.
    private func adoptDisk() -> Set<String> {
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

    private func decodeOrEmpty(_ bytes: Data?) -> DomainValues {
        guard let bytes else { return [:] }
        do {
            return try Self.decode(bytes, path: storage.path)
        } catch {
            // A damaged file cannot be merged with; the write that follows
            // replaces it with this process's keys.
            stateLock.withLock { problem = error as? PreferencesError }
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
        stateLock.lock()
        defer { stateLock.unlock() }
        if active, watcher == nil {
            watcher = DomainWatcher(interval: observationInterval) { [weak self] in
                _ = try? self?.reloadIfChanged()
            }
        } else if !active, let current = watcher {
            current.cancel()
            watcher = nil
        }
    }
}
