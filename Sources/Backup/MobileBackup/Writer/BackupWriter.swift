import Crypto
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
    /// Testing hook: stop with ``MobileBackupError/Code/interrupted`` once
    /// this many payloads have been copied, as a crash would.
    var interruptAfterCopiedPayloads: Int?
    /// Testing hook: stop once an incremental commit is sealed, before it is applied.
    var interruptBeforeApplyingCommit = false

    /// Creates a writer.
    public init(directory: URL, device: BackupDeviceInfo, applications: [BackupApplication] = [], options: BackupOptions = BackupOptions()) {
        self.directory = directory
        self.device = device
        self.applications = applications
        self.options = options
    }

    /// Backs up `sources` and returns what was done. `progress` is called
    /// from worker threads as payloads land.
    @discardableResult
    public func backUp(_ sources: [BackupDomainSource], progress: (@Sendable (BackupProgress) -> Void)? = nil) throws -> BackupSummary {
        let started = Date()
        let live = directory.standardizedFileURL.path
        let staging = live + ".sandbox-staging"
        let retired = live + ".sandbox-retired"
        let parent = (live as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw MobileBackupError(.ioFailed, path: parent, "cannot create the directory for backups: \(error)")
        }
        try recoverInterruptedCommit(live: live, retired: retired)
        try Platform.removeTree(staging)
        if try Platform.status(live) != nil { try IncrementalCommit.recover(live: live) }

        // Building on a previous backup happens in place (see IncrementalCommit):
        // only new and changed payloads and rows are written. The sources are
        // scanned while the previous backup's index loads.
        let incoming = IncrementalCommit.incoming(live)
        let buildsOnPrevious = try !options.forcesFullBackup && Platform.status(live) != nil
        if buildsOnPrevious { try Platform.makeDirectory(incoming) }
        let password = options.password
        let (scanned, loaded) = Self.concurrently({ try SourceScanner.scan(sources) }, {
            buildsOnPrevious ? PreviousBackup.load(directory: live, password: password,
                                                   copyingDatabaseTo: incoming + "/" + IncrementalCommit.plainDatabaseName) : nil
        })
        let entries = try scanned.get()
        let previous = loaded
        if buildsOnPrevious && previous == nil { try Platform.removeTree(incoming) }
        let inPlace = previous != nil
        let target = inPlace ? incoming : staging
        let encryption = try makeEncryption(reusing: previous)

        try Platform.makeDirectory(target)
        var plan = try BackupPlan(entries: entries, previous: previous, options: options, encryption: encryption, inPlace: inPlace)
        try plan.placePayloads(staging: target, interruptAfter: interruptAfterCopiedPayloads, progress: progress)

        let date = Date()
        let plainDatabase = target + "/" + IncrementalCommit.plainDatabaseName
        let removed = plan.removedRows()
        if inPlace {
            try ManifestDatabase.update(at: plainDatabase, rows: plan.rows, deleting: removed.fileIDs)
        } else {
            try ManifestDatabase.create(at: plainDatabase, rows: plan.rows)
        }
        try finishManifestDatabase(plainDatabase, into: target + "/Manifest.db", key: plan.manifestKey)
        try writeFile(FingerprintIndex.encode(plan.fingerprints), target + "/" + FingerprintIndex.fileName)
        try writePropertyList(BackupPropertyLists.info(device: device, applications: applications, date: date),
                              target + "/Info.plist", format: .xml)
        try writePropertyList(BackupPropertyLists.manifest(device: device, applications: applications, date: date,
                                                           keyBag: encryption.keyBag.serialized(),
                                                           manifestKey: plan.manifestKeyBlob),
                              target + "/Manifest.plist", format: .binary)
        // Last: a Status.plist saying "finished" marks the snapshot complete.
        try writePropertyList(BackupPropertyLists.status(date: date, isFullBackup: plan.reused == 0),
                              target + "/Status.plist", format: .binary)
        if options.flushesToDisk { try Platform.flushFileSystem(containing: target) }
        if inPlace {
            try IncrementalCommit.commit(live: live, removedPayloads: removed.payloads, flushes: options.flushesToDisk,
                                         stopsBeforeApplying: interruptBeforeApplyingCommit)
        } else {
            try commit(staging: staging, live: live, retired: retired)
        }

        return BackupSummary(directory: URL(fileURLWithPath: live), isEncrypted: options.password != nil,
                             isIncremental: plan.reused > 0, files: plan.fileCount, directories: plan.directoryCount,
                             symbolicLinks: plan.linkCount, payloadsCopied: plan.copied, payloadsReused: plan.reused,
                             bytesCopied: plan.bytesCopied, bytesTotal: plan.bytesTotal,
                             seconds: Date().timeIntervalSince(started))
    }

    /// Runs two independent pieces of work on two threads.
    private static func concurrently<A: Sendable, B: Sendable>(_ first: @Sendable () throws -> A,
                                                               _ second: @Sendable () -> B) -> (Result<A, Error>, B) {
        let results = ConcurrentResults<A, B>()
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            if index == 0 { results.first = Result { try first() } } else { results.second = second() }
        }
        return (results.first ?? .failure(MobileBackupError(.interrupted, "the scan did not run")), results.second ?? second())
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
    private func finishManifestDatabase(_ plainPath: String, into path: String, key: SymmetricKey?) throws {
        guard options.password != nil else {
            try Platform.rename(plainPath, path)
            return
        }
        defer { try? Platform.removeFile(plainPath) }
        let plain: Data
        do {
            plain = try Data(contentsOf: URL(fileURLWithPath: plainPath))
        } catch {
            throw MobileBackupError(.ioFailed, path: plainPath, "cannot read the new Manifest.db: \(error)")
        }
        guard let key else {
            throw MobileBackupError(.cryptoFailed, "no Manifest.db key was made")
        }
        try Platform.removeFile(path)
        try writeFile(try CBCStream.encrypt(plain, key: key), path)
    }

    /// Puts the staged backup in place of the live one: one atomic exchange
    /// where the kernel has it, else two renames (a crash between them is
    /// undone by ``recoverInterruptedCommit(live:retired:)``); then the old
    /// tree is removed.
    private func commit(staging: String, live: String, retired: String) throws {
        guard try Platform.status(live) != nil else {
            try Platform.rename(staging, live)
            return
        }
        if try Platform.exchange(staging, live) {
            try Platform.removeTree(staging)
            return
        }
        try Platform.rename(live, retired)
        try Platform.rename(staging, live)
        try Platform.removeTree(retired)
    }

    /// After a crash between the two renames of a commit, only the retired
    /// backup exists; it is put back.
    private func recoverInterruptedCommit(live: String, retired: String) throws {
        if try Platform.status(live) == nil, try Platform.status(retired) != nil {
            try Platform.rename(retired, live)
        }
        try Platform.removeTree(retired)
    }

    private func writePropertyList(_ value: PropertyListValue, _ path: String, format: PropertyListFormat) throws {
        let data: Data
        do {
            data = try value.encoded(as: format)
        } catch {
            throw MobileBackupError(.malformedPropertyList, path: path, "cannot encode: \(error)")
        }
        try writeFile(data, path)
    }

    private func writeFile(_ data: Data, _ path: String) throws {
        let descriptor = try Platform.createForWriting(path)
        defer { Platform.close(descriptor) }
        try data.withUnsafeBytes { try Platform.write(descriptor, $0, path: path) }
    }
}

/// The two results of ``BackupWriter/concurrently(_:_:)``; each slot is
/// written by one thread and read after both finished.
private final class ConcurrentResults<A: Sendable, B: Sendable>: @unchecked Sendable {
    var first: Result<A, Error>?
    var second: B?
}
