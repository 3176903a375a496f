import Crypto
import FileSystem
import Foundation
import PropertyList

/// Writes a backup in iOS's MobileBackup2 format: `Info.plist`,
/// `Manifest.plist` (with the keybag), `Status.plist`, `Manifest.db` and
/// one payload per regular file at `xx/<fileID>`.
///
/// Backups are incremental: a file whose size, times and inode match the
/// previous backup's record is not read again, and its payload and row stay
/// where they are. Only new and changed payloads and rows are written, into
/// an incoming directory that a flushed journal then commits (see
/// `IncrementalCommit`), so an interrupted backup leaves the previous
/// complete backup usable. A first (or forced full) backup is built in a
/// staging directory beside the old one and swapped in at the end
/// (`Status.plist` written last, one flush, one atomic exchange).
///
/// ```swift
/// let writer = BackupWriter(directory: root.appendingPathComponent(device.udid), device: device)
/// let summary = try writer.backUp([BackupDomainSource(domain: "AppDomain-com.example.notes", root: container)])
/// ```
public struct BackupWriter: Sendable {
    /// The backup directory, `…/<UDID>`; created if missing.
    public var directory: URL
    /// The device the backup describes.
    public var device: BackupDeviceInfo
    /// The apps listed in `Manifest.plist` and `Info.plist`.
    public var applications: [BackupApplication]
    /// Password, cost and speed settings.
    public var options: BackupOptions
    /// Testing hook: stop with ``MobileBackupErrorCode/interrupted`` once
    /// this many payloads have been copied, as a crash would.
    var interruptAfterCopiedPayloads: Int?
    /// Testing hook: stop once an incremental commit is sealed, before it is applied.
    var interruptBeforeApplyingCommit = false
    /// Testing hook: runs after the sources were walked, before any payload
    /// is read (to change a file between the two).
    var afterScan: (@Sendable () -> Void)?

    /// Creates a writer.
    public init(directory: URL, device: BackupDeviceInfo, applications: [BackupApplication] = [], options: BackupOptions = BackupOptions()) {
        self.directory = directory
        self.device = device
        self.applications = applications
        self.options = options
    }

    /// Backs up `sources` and returns what was done. `progress` is called
    /// from worker threads as payloads land.
    ///
    /// The directory that holds the backup is opened once; the backup, its
    /// staging and incoming directories and its buckets are reached from it
    /// with `*at` calls, never through a link.
    @discardableResult
    public func backUp(_ sources: [BackupDomainSource], progress: (@Sendable (BackupProgress) -> Void)? = nil) throws -> BackupSummary {
        let started = Date()
        let livePath = directory.standardizedFileURL.path
        let (parentPath, live) = FileSystemPaths.split(livePath)
        let staging = live + Self.stagingSuffix
        let retired = live + ".sandbox-retired"
        let backups = try DirectoryHandle.making(parentPath, "create the directory for backups")
        // Held for the whole run: the next writer tells an abandoned staging folder by its free lock.
        let lock = try lockBackup(live, in: backups)
        defer { lock.release() }
        let liveDirectory = try finishInterrupted(in: backups, live: live, retired: retired)
        try removeAbandonedStaging(in: backups, holding: live)

        // Building on a previous backup happens in place (see IncrementalCommit):
        // only new and changed payloads and rows are written. The sources are
        // scanned while the previous backup's index loads.
        var incoming: DirectoryHandle?
        if !options.forcesFullBackup, let liveDirectory {
            incoming = try makeDirectory(IncrementalCommit.directoryName, in: liveDirectory)
        }
        let password = options.password
        let (scanned, loaded) = Self.concurrently({ try SourceScanner.scan(sources) }, { [incoming] () -> PreviousBackup? in
            guard let liveDirectory, let incoming else { return nil }
            return PreviousBackup.load(directory: liveDirectory, password: password, copyingDatabaseInto: incoming)
        })
        let scan = try scanned.get()
        afterScan?()
        let previous = loaded
        if previous == nil, let liveDirectory, incoming != nil {
            try backupIO(liveDirectory.path) { () throws(FileSystemError) in
                _ = try liveDirectory.descriptor.removeTree(IncrementalCommit.directoryName)
            }
            incoming = nil
        }
        let target: DirectoryHandle
        if let incoming, previous != nil { target = incoming } else { target = try makeDirectory(staging, in: backups) }
        let inPlace = previous != nil
        // A run that fails before its commit leaves no staging tree behind
        // (a killed one leaves it to the next run: removeAbandonedStaging).
        var committed = false
        defer { if !inPlace && !committed { _ = try? backups.descriptor.removeTree(staging) } }
        let encryption = try makeEncryption(reusing: previous)

        var plan = try BackupPlan(entries: scan.entries, previous: previous, options: options, encryption: encryption, inPlace: inPlace)
        try plan.placePayloads(into: target, buckets: PayloadBuckets(target, creates: true),
                               interruptAfter: interruptAfterCopiedPayloads, progress: progress)

        let date = Date()
        let plainDatabase = target.path + "/" + IncrementalCommit.plainDatabaseName
        let removed = plan.removedRows()
        if inPlace {
            try ManifestDatabase.update(at: plainDatabase, rows: plan.rows, deleting: removed.fileIDs)
        } else {
            try ManifestDatabase.create(at: plainDatabase, rows: plan.rows)
        }
        try finishManifestDatabase(in: target, key: plan.manifestKey)
        try writeFile(FingerprintIndex.encode(plan.fingerprints), FingerprintIndex.fileName, in: target)
        try writePropertyList(BackupPropertyLists.info(device: device, applications: applications, date: date),
                              "Info.plist", in: target, format: .xml)
        try writePropertyList(BackupPropertyLists.manifest(device: device, applications: applications, date: date,
                                                           keyBag: encryption.keyBag.serialized(),
                                                           manifestKey: plan.manifestKeyBlob),
                              "Manifest.plist", in: target, format: .binary)
        // Last: a Status.plist saying "finished" marks the snapshot complete.
        try writePropertyList(BackupPropertyLists.status(date: date, isFullBackup: plan.reused == 0),
                              "Status.plist", in: target, format: .binary)
        if options.flushesToDisk {
            try backupIO(target.path) { () throws(FileSystemError) in try target.descriptor.syncFileSystem() }
        }
        if inPlace, let liveDirectory {
            try IncrementalCommit.commit(live: liveDirectory, incoming: target, removedPayloads: removed.payloads,
                                         flushes: options.flushesToDisk, stopsBeforeApplying: interruptBeforeApplyingCommit)
        } else {
            try commit(in: backups, staging: staging, live: live, retired: retired)
        }
        committed = true

        return BackupSummary(directory: URL(fileURLWithPath: livePath), isEncrypted: options.password != nil,
                             isIncremental: plan.reused > 0, files: plan.fileCount, directories: plan.directoryCount,
                             symbolicLinks: plan.linkCount, payloadsCopied: plan.copied, payloadsReused: plan.reused,
                             bytesCopied: plan.bytesCopied, bytesTotal: plan.bytesTotal,
                             seconds: Date().timeIntervalSince(started), skippedFiles: scan.skipped + plan.skipped)
    }

    /// Finishes what an interrupted backup left, and backs nothing up: a
    /// sealed incremental commit is rolled forward, an unsealed one
    /// discarded, a half-swapped full backup put back. ``backUp(_:progress:)``
    /// does this first itself; ``BackupReader`` never does (reading a backup
    /// writes nothing), so a reader sees the backup as it was before the
    /// interrupted run until a writer comes. Abandoned staging folders are
    /// removed too (see `removeAbandonedStaging(in:holding:)`). Every step is
    /// beneath the held backup directory, never through a link.
    public func finishInterruptedBackup() throws {
        let (parentPath, live) = FileSystemPaths.split(directory.standardizedFileURL.path)
        guard FileSystemPaths.exists(atPath: parentPath) else { return }
        let backups = try DirectoryHandle.making(parentPath, "open the directory for backups")
        let lock = try lockBackup(live, in: backups)
        defer { lock.release() }
        _ = try finishInterrupted(in: backups, live: live, retired: live + ".sandbox-retired")
        try removeAbandonedStaging(in: backups, holding: live)
    }

    /// The recovery steps of ``finishInterruptedBackup()``; returns the live backup, held, if there is one.
    private func finishInterrupted(in backups: DirectoryHandle, live: String, retired: String) throws -> DirectoryHandle? {
        try recoverInterruptedCommit(in: backups, live: live, retired: retired)
        let liveDirectory = try openIfPresent(live, in: backups)
        if let liveDirectory { try IncrementalCommit.recover(live: liveDirectory) }
        return liveDirectory
    }

    /// The directory `name` of `parent`, or nil when there is none; a link
    /// there is refused, never followed.
    private func openIfPresent(_ name: String, in parent: DirectoryHandle) throws -> DirectoryHandle? {
        try backupIO(parent.path + "/" + name) { () throws(FileSystemError) -> DirectoryHandle? in
            guard try parent.descriptor.statusIfPresent(of: name) != nil else { return nil }
            return try parent.directory(name)
        }
    }

    /// Creates the directory `name` in `parent` (an existing one is fine) and holds it.
    private func makeDirectory(_ name: String, in parent: DirectoryHandle) throws -> DirectoryHandle {
        try backupIO(parent.path + "/" + name) { () throws(FileSystemError) in
            try parent.descriptor.makeDirectoryIfMissing(name)
            return try parent.directory(name)
        }
    }

    /// Runs two independent pieces of work on two threads.
    private static func concurrently<A: Sendable, B: Sendable>(_ first: @Sendable () throws -> A,
                                                               _ second: @Sendable () -> B) -> (Result<A, Error>, B) {
        // Each slot is written by one thread and read after both finished.
        let results = Locked<(first: Result<A, Error>?, second: B?)>((nil, nil))
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            if index == 0 {
                let result = Result { try first() }
                results.withLock { $0.first = result }
            } else {
                let result = second()
                results.withLock { $0.second = result }
            }
        }
        let (firstResult, secondResult) = results.withLock { $0 }
        return (firstResult ?? .failure(MobileBackupError(.interrupted, "the scan did not run")), secondResult ?? second())
    }

    /// The keybag: the previous backup's when it was encrypted with the same
    /// password (so its wrapped file keys stay valid), else a new one. A
    /// plain backup gets a keybag too, as iOS's do and as readers expect,
    /// wrapped with a random secret nobody keeps.
    private func makeEncryption(reusing previous: PreviousBackup?) throws -> BackupEncryption {
        if let password = options.password {
            if let reused = previous?.encryption { return reused }
            let (bag, keys) = try BackupKeyBag.create(password: password, parameters: options.keyDerivation)
            return BackupEncryption(keyBag: bag, classKeys: keys)
        }
        let secret = randomBytes(32).base64EncodedString()
        var (bag, keys) = try BackupKeyBag.create(password: secret, parameters: BackupKeyDerivation(doubleProtectionIterations: 1, iterations: 1_000))
        // Plain backups carry no DPSL/DPIC stage, like backups made before encryption was turned on.
        bag.doubleProtectionSalt = nil
        bag.doubleProtectionIterations = nil
        keys.removeAll()
        return BackupEncryption(keyBag: bag, classKeys: keys)
    }

    /// Turns the plaintext database into `Manifest.db`: renamed as it is
    /// for a plain backup, encrypted (AES-256-CBC, PKCS#7) for an encrypted one.
    private func finishManifestDatabase(in target: DirectoryHandle, key: SymmetricKey?) throws {
        let plainName = IncrementalCommit.plainDatabaseName
        let directory = target.descriptor
        guard options.password != nil else {
            try backupIO(target.path + "/Manifest.db") { () throws(FileSystemError) in
                try directory.rename(plainName, to: directory, "Manifest.db")
            }
            return
        }
        defer { try? directory.removeIfPresent(plainName) }
        let plain = try backupIO(target.path + "/" + plainName) { () throws(FileSystemError) in
            try directory.readFileIfPresent(plainName) ?? Data()
        }
        guard let key else {
            throw MobileBackupError(.cryptoFailed, "no Manifest.db key was made")
        }
        try backupIO(target.path + "/Manifest.db") { () throws(FileSystemError) in try directory.removeIfPresent("Manifest.db") }
        try writeFile(try CBCStream.encrypt(plain, key: key), "Manifest.db", in: target)
    }

    /// Puts the staged backup in place of the live one: one atomic exchange
    /// where the kernel has it, else two renames (a crash between them is
    /// undone by ``recoverInterruptedCommit(in:live:retired:)``); then the old
    /// tree is removed.
    private func commit(in backups: DirectoryHandle, staging: String, live: String, retired: String) throws {
        let parent = backups.descriptor
        try backupIO(backups.path + "/" + live) { () throws(FileSystemError) in
            guard try parent.statusIfPresent(of: live) != nil else {
                try parent.rename(staging, to: parent, live)
                return
            }
            if try parent.exchange(staging, live) {
                _ = try parent.removeTree(staging)
                return
            }
            try parent.rename(live, to: parent, retired)
            try parent.rename(staging, to: parent, live)
            _ = try parent.removeTree(retired)
        }
    }

    /// After a crash between the two renames of a commit, only the retired
    /// backup exists; it is put back.
    private func recoverInterruptedCommit(in backups: DirectoryHandle, live: String, retired: String) throws {
        let parent = backups.descriptor
        try backupIO(backups.path + "/" + live) { () throws(FileSystemError) in
            if try parent.statusIfPresent(of: live) == nil, try parent.statusIfPresent(of: retired) != nil {
                try parent.rename(retired, to: parent, live)
            }
            _ = try parent.removeTree(retired)
        }
    }

    private func writePropertyList(_ value: PropertyListValue, _ name: String, in target: DirectoryHandle,
                                   format: PropertyListFormat) throws {
        let data: Data
        do {
            data = try value.encoded(as: format)
        } catch {
            throw MobileBackupError(.malformedPropertyList, path: target.path + "/" + name, "cannot encode").caused(by: error)
        }
        try writeFile(data, name, in: target)
    }

    /// Creates the file `name` in the held `target` (it must not exist).
    private func writeFile(_ data: Data, _ name: String, in target: DirectoryHandle) throws {
        try backupIO(target.path + "/" + name) { () throws(FileSystemError) in try target.descriptor.createFile(name, data) }
    }
}

/// One writer per backup, and no staging tree outlives its writer.
///
/// A full backup is built in `<UDID>.sandbox-staging` beside the live one;
/// a writer killed while building (or before it removed the old tree after
/// the swap) leaves that folder, which for a large sparse file could hold
/// gigabytes. Each writer holds an exclusive `flock` on `.<UDID>.lock` in
/// the backups directory for its whole run (the kernel drops it when the
/// process dies), so the next writer in that directory, for any device,
/// knows a staging folder whose lock it can take was abandoned and removes
/// it before it writes anything, and a second writer of the same backup is
/// refused rather than removing the first one's staging under it.
extension BackupWriter {
    static let stagingSuffix = ".sandbox-staging"

    /// Takes the writer's lock on the backup `live` in `backups`;
    /// ``MobileBackupErrorCode/backupInProgress`` if another process holds it.
    func lockBackup(_ live: String, in backups: DirectoryHandle) throws -> LockFile {
        let lockPath = backups.path + "/" + LockFile.lockName(for: live)
        let lock = try backupIO(lockPath) { () throws(FileSystemError) in
            try LockFile.tryAcquire(for: live, in: backups.descriptor, permissions: 0o600)
        }
        guard let lock else {
            throw MobileBackupError(.backupInProgress, path: backups.path + "/" + live,
                                    "another process is writing this backup (it holds \(lockPath)); wait for it to finish")
        }
        return lock
    }

    /// Removes every `<name>.sandbox-staging` folder in `backups` whose
    /// writer is gone (its lock is free), this backup's own included;
    /// returns the names removed. A staging folder of a writer still at
    /// work is left alone. Nothing is followed through a link.
    @discardableResult
    func removeAbandonedStaging(in backups: DirectoryHandle, holding ownLive: String) throws -> [String] {
        let names = try backupIO(backups.path) { () throws(FileSystemError) in try backups.descriptor.sortedEntries() }
        var removed: [String] = []
        for name in names where name.hasSuffix(Self.stagingSuffix) {
            let live = String(name.dropLast(Self.stagingSuffix.count))
            guard !live.isEmpty else { continue }
            var otherLock: LockFile?
            if live != ownLive {
                otherLock = try backupIO(backups.path + "/" + LockFile.lockName(for: live)) { () throws(FileSystemError) in
                    try LockFile.tryAcquire(for: live, in: backups.descriptor, permissions: 0o600)
                }
                // Its writer is still running.
                guard otherLock != nil else { continue }
            }
            try backupIO(backups.path + "/" + name) { () throws(FileSystemError) in _ = try backups.descriptor.removeTree(name) }
            otherLock?.release()
            removed.append(name)
        }
        return removed
    }
}
