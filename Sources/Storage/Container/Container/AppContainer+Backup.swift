import Foundation
import PropertyList

/// The do-not-back-up flag (`URLResourceValues.isExcludedFromBackup`).
///
/// On Linux the flag is the extended attribute `user.com.apple.MobileBackup`
/// holding the single byte 1, the attribute and value of Apple's Technical
/// Q&A QA1719 (iOS 5.0.1) under Linux's mandatory `user.` namespace. Where
/// the file system has no extended attributes, the container keeps a record
/// file at its root instead. Atomic rewrites, copies and moves through this
/// API keep the flag (Foundation on Linux drops it).
extension AppContainer {
    /// The extended attribute that carries the flag.
    public static let exclusionAttributeName = "user.com.apple.MobileBackup"

    /// Sets or clears the do-not-back-up flag on a file or directory.
    public func setExcludedFromBackup(_ excluded: Bool, at path: String) throws {
        let path = try ContainerPath(path)
        // The standard directories themselves may carry the flag (QA1719
        // advises against it, iOS allows it); the root and the bundle not.
        if path.isRoot || StorageRules.directory(forRelativePath: path.normalized) == .bundle {
            try checkWritable(path, action: "set the do-not-back-up flag")
        }
        let fd = try directory.open(path, flags: Platform.readOnly | Platform.nonBlocking, followFinal: false,
                                    action: "set the do-not-back-up flag")
        defer { Platform.close(fd) }
        do { try setExclusionFlag(fd, path: path, excluded) }
        catch { throw ContainerError(error, path: path.text, "set the do-not-back-up flag") }
    }

    /// Whether the item itself carries the do-not-back-up flag (the flag of
    /// a containing directory is not consulted; backup walks do that).
    public func isExcludedFromBackup(_ path: String) throws -> Bool {
        let path = try ContainerPath(path)
        if path.isRoot { return false }
        return try directory.withParent(path, action: "read the do-not-back-up flag") { parent, name throws(ContainerError) in
            if (try? Platform.stat(parent, name)) == nil {
                throw directory.failure(SystemFailure(errno: Platform.notFoundErrno), path, "read the do-not-back-up flag")
            }
            return try exclusionFlag(parent, name, path)
        }
    }

    // MARK: Internals shared with writes and copies

    /// The flag of `name` in `parent`.
    func exclusionFlag(_ parent: Platform.Descriptor, _ name: String, _ path: ContainerPath) throws(ContainerError) -> Bool {
        if options.exclusionStorage == .record { return try exclusionRecord().contains(path.normalized) }
        if let info = try? Platform.stat(parent, name), info.isSymbolicLink { return false }
        let fd: Platform.Descriptor
        do { fd = try Platform.openAt(parent, name, flags: Platform.readOnly | Platform.noFollow | Platform.nonBlocking) }
        catch { throw directory.failure(error, path, "read the do-not-back-up flag") }
        defer { Platform.close(fd) }
        do {
            guard let value = try Platform.extendedAttribute(fd, Self.exclusionAttributeName) else { return false }
            return value.first.map { $0 != 0 } ?? false
        } catch {
            if Platform.isUnsupported(error.errno) { return try exclusionRecord().contains(path.normalized) }
            throw ContainerError(error, path: path.text, "read the do-not-back-up flag")
        }
    }

    /// Sets the flag on an open item that will be (or is) at `path`.
    func setExclusionFlag(_ fd: Platform.Descriptor, path: ContainerPath, _ excluded: Bool) throws(SystemFailure) {
        if options.exclusionStorage == .automatic {
            do {
                if excluded { try Platform.setExtendedAttribute(fd, Self.exclusionAttributeName, [1]) }
                else { try Platform.removeExtendedAttribute(fd, Self.exclusionAttributeName) }
                return
            } catch {
                if !Platform.isUnsupported(error.errno) { throw error }
            }
        }
        do { try exclusionRecordSet(path, excluded) }
        catch { throw SystemFailure(errno: Platform.ioErrno) }
    }

    // MARK: The record (fallback)

    func exclusionRecord() throws(ContainerError) -> ExclusionRecord {
        try ExclusionRecord.load(directory)
    }

    func exclusionRecordSet(_ path: ContainerPath, _ excluded: Bool) throws(ContainerError) {
        try ExclusionRecord.update(directory) { paths in
            if excluded { paths.insert(path.normalized) } else { paths.remove(path.normalized) }
        }
    }

    /// Drops the record's entries at and below a removed path.
    func exclusionRecordRemove(_ path: ContainerPath) throws(ContainerError) {
        guard ExclusionRecord.exists(directory) else { return }
        let key = path.normalized
        try ExclusionRecord.update(directory) { paths in
            paths = paths.filter { $0 != key && !$0.hasPrefix(key + "/") }
        }
    }

    /// Moves the record's entries at and below a moved path.
    func exclusionRecordMove(from: ContainerPath, to: ContainerPath) throws(ContainerError) {
        guard ExclusionRecord.exists(directory) else { return }
        let old = from.normalized
        let new = to.normalized
        try ExclusionRecord.update(directory) { paths in
            paths = Set(paths.map { entry in
                if entry == old { return new }
                if entry.hasPrefix(old + "/") { return new + entry.dropFirst(old.count) }
                return entry
            })
        }
    }
}

/// The container-level record of do-not-back-up paths, for file systems
/// without extended attributes: a binary plist array of container-relative
/// paths at the root, changed under an exclusive lock.
struct ExclusionRecord {
    static let fileName = ".com.apple.sandbox.backup-exclusions.plist"
    static let lockName = ".com.apple.sandbox.backup-exclusions.lock"

    var paths: Set<String>

    func contains(_ path: String) -> Bool { paths.contains(path) }

    /// The container's own files at the root, hidden from listings.
    static func isBookkeeping(_ name: String) -> Bool { name.hasPrefix(".com.apple.sandbox.") }

    static func exists(_ directory: ConfinedDirectory) -> Bool {
        (try? Platform.stat(directory.root.fd, fileName)) != nil
    }

    static func load(_ directory: ConfinedDirectory) throws(ContainerError) -> ExclusionRecord {
        let fd: Platform.Descriptor
        do { fd = try Platform.openAt(directory.root.fd, fileName, flags: Platform.readOnly | Platform.noFollow) }
        catch {
            if Platform.isNotFound(error.errno) { return ExclusionRecord(paths: []) }
            throw ContainerError(error, path: fileName, "read the backup-exclusion record")
        }
        defer { Platform.close(fd) }
        do {
            let size = Int(clamping: try Platform.stat(fd).size)
            var data = Data(count: size)
            _ = try data.withUnsafeMutableBytes { buffer throws(SystemFailure) in try Platform.read(fd, into: buffer, at: 0) }
            guard let array = try PropertyListValue(data: data).arrayValue else {
                throw ContainerError(.corrupt, path: fileName, "the backup-exclusion record is not an array")
            }
            return ExclusionRecord(paths: Set(array.compactMap(\.stringValue)))
        } catch let error as ContainerError {
            throw error
        } catch let error as SystemFailure {
            throw ContainerError(error, path: fileName, "read the backup-exclusion record")
        } catch {
            throw ContainerError(.corrupt, path: fileName, "the backup-exclusion record is unreadable: \(error)")
        }
    }

    static func update(_ directory: ConfinedDirectory, _ change: (inout Set<String>) -> Void) throws(ContainerError) {
        let root = directory.root.fd
        let lock: Platform.Descriptor
        do {
            lock = try Platform.openAt(root, lockName, flags: Platform.readWrite | Platform.create | Platform.noFollow, mode: 0o600)
            try Platform.lockExclusive(lock)
        } catch {
            throw ContainerError(error, path: lockName, "lock the backup-exclusion record")
        }
        defer {
            Platform.unlock(lock)
            Platform.close(lock)
        }
        var record = try load(directory)
        change(&record.paths)
        let value = PropertyListValue.array(record.paths.sorted().map { .string($0) })
        let data: Data
        do { data = try value.encoded(as: .binary) }
        catch { throw ContainerError(.corrupt, path: fileName, "cannot encode the backup-exclusion record: \(error)") }
        let temporary = ".com.apple.sandbox.\(Platform.randomSuffix()).tmp"
        do throws(SystemFailure) {
            let fd = try Platform.openAt(root, temporary, flags: Platform.writeOnly | Platform.create | Platform.exclusive, mode: 0o600)
            defer { Platform.close(fd) }
            try Platform.write(fd, data)
            try Platform.sync(fd)
            try Platform.rename(root, temporary, root, fileName, replace: true)
            try Platform.sync(root)
        } catch {
            try? Platform.unlink(root, temporary, directory: false)
            throw ContainerError(error, path: fileName, "write the backup-exclusion record")
        }
    }
}
