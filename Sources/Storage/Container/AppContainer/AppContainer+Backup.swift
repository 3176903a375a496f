import FileSystem
import SystemPackage
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
        let fd = try directory.open(path, .readOnly, options: .nonBlocking, followFinal: false,
                                    action: "set the do-not-back-up flag")
        defer { fd.closeQuietly() }
        do { try setExclusionFlag(fd, path: path, excluded) }
        catch { throw ContainerError(error, path: path.text, "set the do-not-back-up flag") }
    }

    /// Whether the item itself carries the do-not-back-up flag (the flag of
    /// a containing directory is not consulted; backup walks do that).
    public func isExcludedFromBackup(_ path: String) throws -> Bool {
        let path = try ContainerPath(path)
        if path.isRoot { return false }
        return try directory.withParent(path, action: "read the do-not-back-up flag") { parent, name throws(ContainerError) in
            if (try? parent.status(of: name)) == nil {
                throw directory.failure(FileSystemError(.noSuchFileOrDirectory, "read the do-not-back-up flag", path: name),
                                        path, "read the do-not-back-up flag")
            }
            return try exclusionFlag(parent, name, path)
        }
    }

    // MARK: Internals shared with writes and copies

    /// The flag of `name` in `parent`.
    func exclusionFlag(_ parent: FileDescriptor, _ name: String, _ path: ContainerPath) throws(ContainerError) -> Bool {
        if options.exclusionStorage == .record { return try exclusionRecord().contains(path.normalized) }
        if let info = try? parent.status(of: name), info.isSymbolicLink { return false }
        let fd: FileDescriptor
        do { fd = try parent.open(name, .readOnly, options: [.noFollow, .nonBlocking]) }
        catch { throw directory.failure(error, path, "read the do-not-back-up flag") }
        defer { fd.closeQuietly() }
        return try exclusionFlag(of: fd, path)
    }

    /// The flag of an open file or directory that is at `path`.
    func exclusionFlag(of fd: FileDescriptor, _ path: ContainerPath) throws(ContainerError) -> Bool {
        if options.exclusionStorage == .record { return try exclusionRecord().contains(path.normalized) }
        do {
            guard let value = try fd.extendedAttribute(Self.exclusionAttributeName) else { return false }
            return value.first.map { $0 != 0 } ?? false
        } catch {
            if error.isUnsupported { return try exclusionRecord().contains(path.normalized) }
            throw ContainerError(error, path: path.text, "read the do-not-back-up flag")
        }
    }

    /// Sets the flag on an open item that will be (or is) at `path`: the
    /// attribute, or the record where the file system has none (a record
    /// that cannot be written is an `EIO`).
    func setExclusionFlag(_ fd: FileDescriptor, path: ContainerPath, _ excluded: Bool) throws(FileSystemError) {
        if options.exclusionStorage == .automatic {
            do {
                if excluded { try fd.setExtendedAttribute(Self.exclusionAttributeName, [1]) }
                else { try fd.removeExtendedAttribute(Self.exclusionAttributeName) }
                return
            } catch {
                if !error.isUnsupported { throw error }
            }
        }
        do { try exclusionRecordSet(path, excluded) }
        catch { throw FileSystemError(.ioError, "record the do-not-back-up flag of", path: path.text) }
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
    /// What the lock is named for: the lock file is
    /// `.com.apple.sandbox.backup-exclusions.lock` (``LockFile/lockName(for:)``).
    static let lockSubject = "com.apple.sandbox.backup-exclusions"

    var paths: Set<String>

    func contains(_ path: String) -> Bool { paths.contains(path) }

    /// The container's own files at the root, hidden from listings.
    static func isBookkeeping(_ name: String) -> Bool { name.hasPrefix(".com.apple.sandbox.") }

    static func exists(_ directory: ConfinedDirectory) -> Bool {
        (try? directory.root.descriptor.status(of: fileName)) != nil
    }

    static func load(_ directory: ConfinedDirectory) throws(ContainerError) -> ExclusionRecord {
        let data: Data
        do {
            let fd = try directory.root.descriptor.open(fileName, .readOnly, options: .noFollow)
            defer { fd.closeQuietly() }
            data = try fd.readAll()
        } catch {
            if error.isNotFound { return ExclusionRecord(paths: []) }
            throw ContainerError(error, path: fileName, "read the backup-exclusion record")
        }
        let array: [PropertyListValue]?
        do { array = try PropertyListValue(data: data).arrayValue }
        catch { throw ContainerError(.corrupt, path: fileName, "the backup-exclusion record is unreadable").caused(by: error) }
        guard let array else {
            throw ContainerError(.corrupt, path: fileName, "the backup-exclusion record is not an array")
        }
        return ExclusionRecord(paths: Set(array.compactMap(\.stringValue)))
    }

    static func update(_ directory: ConfinedDirectory, _ change: (inout Set<String>) -> Void) throws(ContainerError) {
        let root = directory.root.descriptor
        let lock: LockFile
        do { lock = try LockFile.acquire(for: lockSubject, in: root, permissions: 0o600) }
        catch { throw ContainerError(error, path: LockFile.lockName(for: lockSubject), "lock the backup-exclusion record") }
        defer { lock.release() }
        var record = try load(directory)
        change(&record.paths)
        let value = PropertyListValue.array(record.paths.sorted().map { .string($0) })
        let data: Data
        do { data = try value.encoded(as: .binary) }
        catch { throw ContainerError(.corrupt, path: fileName, "cannot encode the backup-exclusion record").caused(by: error) }
        do { try root.writeAtomically(data, to: fileName, options: AtomicWriteOptions(durability: .full, permissions: 0o600)) }
        catch { throw ContainerError(error, path: fileName, "write the backup-exclusion record") }
    }
}
