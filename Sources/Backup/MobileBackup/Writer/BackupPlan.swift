import Crypto
import FileSystem
import Foundation
import SystemPackage

/// The work of one backup: which payloads are reused from the previous
/// backup and which are copied, then the rows and fingerprints that result.
struct BackupPlan {
    private(set) var rows: [ManifestRow] = []
    private(set) var fingerprints: [String: FileFingerprint] = [:]
    private(set) var copied = 0
    private(set) var reused = 0
    private(set) var bytesCopied: Int64 = 0
    private(set) var bytesTotal: Int64 = 0
    private var bytesReused: Int64 = 0
    private(set) var fileCount = 0
    private(set) var directoryCount = 0
    private(set) var linkCount = 0
    /// Files whose payload stays where it is in the live backup (in-place runs).
    private(set) var unchangedFileIDs = Set<String>()
    /// Files left out because they changed between the walk and the read.
    private(set) var skipped: [BackupSkippedFile] = []
    private var skippedFileIDs = Set<String>()
    /// The key that encrypts Manifest.db and its wrapped form for `Manifest.plist`.
    var manifestKey: SymmetricKey? { sharedManifestKey?.key }
    private let sharedManifestKey: SendableKey?
    let manifestKeyBlob: Data?

    let entries: [ScannedEntry]
    private let previous: PreviousBackup?
    private let options: BackupOptions
    let encryption: BackupEncryption?
    /// In place: new payloads go flat into the incoming directory and
    /// unchanged ones stay in the live backup, whose rows stay in its
    /// Manifest.db; else every payload is placed (copied or hard-linked)
    /// at `xx/<fileID>` in a staging tree.
    let inPlace: Bool

    init(entries: [ScannedEntry], previous: PreviousBackup?, options: BackupOptions, encryption: BackupEncryption,
         inPlace: Bool = false) throws {
        self.entries = entries
        self.previous = previous
        self.inPlace = inPlace && previous != nil
        self.options = options
        self.encryption = options.password == nil ? nil : encryption
        if options.password != nil {
            let key = SymmetricKey(size: .bits256)
            sharedManifestKey = SendableKey(key)
            manifestKeyBlob = try encryption.blob(for: key, protectionClass: BackupEncryption.manifestClass)
        } else {
            sharedManifestKey = nil
            manifestKeyBlob = nil
        }
    }

    /// Links unchanged payloads, copies the rest (in parallel), and builds
    /// every row. Payloads go into `target` (the staging or incoming
    /// directory, held open): at `xx/<fileID>` through `buckets`, or flat in
    /// place.
    mutating func placePayloads(into target: DirectoryHandle, buckets: PayloadBuckets, interruptAfter: Int?,
                                progress: (@Sendable (BackupProgress) -> Void)?) throws {
        var toCopy: [Int] = []
        var results = [ManifestRow?](repeating: nil, count: entries.count)
        let destination = PayloadDestination(flat: inPlace ? target : nil, buckets: buckets)

        for (index, entry) in entries.enumerated() {
            switch entry.kind {
            case .directory:
                directoryCount += 1
                results[index] = try row(for: entry, payload: nil)
            case .symbolicLink:
                linkCount += 1
                results[index] = try row(for: entry, payload: nil)
            case .file:
                fileCount += 1
                bytesTotal += entry.status.map { Int64($0.size) } ?? Int64(entry.contents?.count ?? 0)
                if let reusedRow = try reuse(entry, into: destination) {
                    // In place, the live Manifest.db keeps the unchanged row.
                    results[index] = inPlace ? nil : reusedRow
                    reused += 1
                    bytesReused += entry.status.map { Int64($0.size) } ?? Int64(entry.contents?.count ?? 0)
                } else {
                    toCopy.append(index)
                }
            }
        }

        try checkFreeSpace(copying: toCopy, into: target)
        let outcome = try copyInParallel(toCopy, into: destination, interruptAfter: interruptAfter, progress: progress)
        for (index, copiedRow, print) in outcome.rows {
            results[index] = copiedRow
            fingerprints[entries[index].fileID] = print
        }
        for (index, skip) in outcome.skipped.sorted(by: { $0.0 < $1.0 }) {
            // Left out as if it were not there: no row, and in place the
            // previous backup's row and payload go (see removedRows()).
            skipped.append(skip)
            skippedFileIDs.insert(entries[index].fileID)
            fileCount -= 1
            bytesTotal -= entries[index].status.map { Int64($0.size) } ?? 0
        }
        copied = outcome.rows.count
        bytesCopied = outcome.bytes
        rows = results.compactMap { $0 }
    }

    /// The previous row, if the file is unchanged and its payload could be linked in.
    private mutating func reuse(_ entry: ScannedEntry, into destination: PayloadDestination) throws -> ManifestRow? {
        guard let previous, let blob = previous.rows[entry.fileID], let old = previous.fingerprints[entry.fileID] else { return nil }
        let current: FileFingerprint
        if let status = entry.status {
            current = FileFingerprint(size: Int64(status.size), modifiedNanoseconds: status.modificationNanoseconds,
                                      changedNanoseconds: status.changeNanoseconds, inode: status.inode, digest: old.digest)
        } else if let contents = entry.contents, encryption == nil {
            // In-memory files have no times: compare contents by digest.
            current = FileFingerprint(size: Int64(contents.count), modifiedNanoseconds: old.modifiedNanoseconds,
                                      changedNanoseconds: old.changedNanoseconds, inode: old.inode,
                                      digest: Array(Insecure.SHA1.hash(data: contents)))
        } else {
            return nil
        }
        guard current == old else { return nil }
        let path = previous.directory.path + "/" + BackupFileID.payloadPath(entry.fileID)
        let reusable = try backupIO(path) { () throws(FileSystemError) -> Bool in
            let bucket: FileDescriptor
            do throws(FileSystemError) { bucket = try previous.buckets.bucket(for: entry.fileID) } catch {
                if error.isNotFound || error.isLoop || error.isNotDirectory { return false }
                throw error
            }
            if inPlace {
                guard let stored = try bucket.statusIfPresent(of: entry.fileID), stored.isRegularFile else { return false }
                return Int64(stored.size) == payloadSize(old.size)
            }
            // ENOENT: the previous payload is gone, so it is copied instead.
            do throws(FileSystemError) { return try bucket.hardLink(entry.fileID, to: try destination.buckets.bucket(for: entry.fileID), entry.fileID) } catch {
                if error.isNotFound { return false }
                throw error
            }
        }
        guard reusable else { return nil }
        if inPlace { unchangedFileIDs.insert(entry.fileID) }
        fingerprints[entry.fileID] = old
        return ManifestRow(fileID: entry.fileID, domain: entry.domain, relativePath: entry.relativePath,
                           flags: entry.kind.rawValue, file: blob)
    }

    /// The stored size of a payload of `size` plaintext bytes (AES-CBC pads to the next block).
    private func payloadSize(_ size: Int64) -> Int64 {
        encryption == nil ? size : (size / 16 + 1) * 16
    }

    /// Rows of the previous backup that no scanned entry has any more, and
    /// those of them that had a payload.
    func removedRows() -> (fileIDs: [String], payloads: [String]) {
        guard let previous else { return ([], []) }
        let current = Set(entries.map(\.fileID)).subtracting(skippedFileIDs)
        let removed = previous.rows.keys.filter { !current.contains($0) }.sorted()
        return (removed, removed.filter { previous.fileRows.contains($0) })
    }

    private func row(for entry: ScannedEntry, payload: CopiedPayload?) throws -> ManifestRow {
        let status = entry.status
        let seconds = { (nanoseconds: Int64) in nanoseconds / 1_000_000_000 }
        let modified = status.map { seconds($0.modificationNanoseconds) } ?? entry.modificationSeconds
        let changed = status.map { seconds($0.changeNanoseconds) } ?? entry.modificationSeconds
        let typeBits: UInt32 = entry.kind == .directory ? 0o040000 : entry.kind == .symbolicLink ? 0o120000 : 0o100000
        let record = BackupFileRecord(
            domain: entry.domain, relativePath: entry.relativePath, kind: entry.kind,
            size: payload?.size ?? 0, mode: status?.mode ?? (typeBits | entry.permissions),
            birth: min(modified, changed), lastModified: modified, lastStatusChange: changed,
            inode: status?.inode ?? 0, userID: options.userID, groupID: options.groupID,
            protectionClass: entry.kind == .file ? entry.protectionClass : .unspecified, target: entry.target,
            digest: payload?.digest.map { Data($0) }, encryptionKey: payload?.encryptionKey)
        return ManifestRow(fileID: entry.fileID, domain: entry.domain, relativePath: entry.relativePath,
                           flags: entry.kind.rawValue, file: try record.archived())
    }

    private struct CopyOutcome {
        var rows: [(Int, ManifestRow, FileFingerprint)]
        var skipped: [(Int, BackupSkippedFile)]
        var bytes: Int64
    }

    /// Copies the payloads on `options.concurrency` threads, each taking
    /// the next file from a shared counter.
    private func copyInParallel(_ indices: [Int], into destination: PayloadDestination, interruptAfter: Int?,
                                progress: (@Sendable (BackupProgress) -> Void)?) throws -> CopyOutcome {
        let shared = CopyState()
        let workers = min(options.concurrency, max(1, indices.count))
        // The workers only read the plan.
        let plan = self
        let alreadyDone = reused
        let total = fileCount
        let totalBytes = bytesTotal
        let reusedBytes = bytesReused
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            let copier = PayloadCopier()
            while let position = shared.next(limit: indices.count, interruptAfter: interruptAfter) {
                let index = indices[position]
                let entry = plan.entries[index]
                do {
                    let payload: CopiedPayload
                    switch try plan.copyPayload(entry, with: copier, into: destination) {
                    case .copied(let copiedPayload): payload = copiedPayload
                    case .skipped(let skip):
                        shared.skip(index: index, skip)
                        continue
                    }
                    let row = try plan.row(for: entry, payload: payload)
                    let status = entry.status
                    // The scan's times and inode with the size read: a file that
                    // changed after the scan never matches its fingerprint again.
                    let print = FileFingerprint(size: payload.size, modifiedNanoseconds: status?.modificationNanoseconds ?? 0,
                                                changedNanoseconds: status?.changeNanoseconds ?? 0, inode: status?.inode ?? 0,
                                                digest: plan.encryption == nil ? payload.digest ?? [] : [])
                    let done = shared.finish(index: index, row: row, print: print, bytes: payload.size)
                    if let progress, done.count % 64 == 0 || done.count == indices.count {
                        progress(BackupProgress(completedFiles: alreadyDone + done.count, totalFiles: total,
                                                completedBytes: reusedBytes + done.bytes, totalBytes: totalBytes))
                    }
                } catch {
                    shared.fail(error)
                }
            }
        }
        let outcome = shared.outcome
        if let error = outcome.error { throw error }
        return CopyOutcome(rows: outcome.rows, skipped: outcome.skipped, bytes: outcome.bytes)
    }
}

/// The copy workers' shared counter and results.
private final class CopyState: Sendable {
    struct Outcome {
        var position = 0
        var started = 0
        var rows: [(Int, ManifestRow, FileFingerprint)] = []
        var skipped: [(Int, BackupSkippedFile)] = []
        var bytes: Int64 = 0
        var error: Error?
    }

    private let state = Locked(Outcome())

    /// What the workers did, once they are done.
    var outcome: Outcome { state.withLock { $0 } }

    func next(limit: Int, interruptAfter: Int?) -> Int? {
        state.withLock { state in
            guard state.error == nil, state.position < limit else { return nil }
            if let interruptAfter, state.started >= interruptAfter {
                state.error = MobileBackupError(.interrupted, "the backup was interrupted after \(interruptAfter) payloads")
                return nil
            }
            state.started += 1
            state.position += 1
            return state.position - 1
        }
    }

    func finish(index: Int, row: ManifestRow, print: FileFingerprint, bytes count: Int64) -> (count: Int, bytes: Int64) {
        state.withLock { state in
            state.rows.append((index, row, print))
            state.bytes += count
            return (state.rows.count, state.bytes)
        }
    }

    func skip(index: Int, _ skip: BackupSkippedFile) {
        state.withLock { $0.skipped.append((index, skip)) }
    }

    func fail(_ failure: Error) {
        state.withLock { if $0.error == nil { $0.error = failure } }
    }
}

/// Where a run's new payloads go: flat in the incoming directory of an
/// in-place run, else at `xx/<fileID>` in the staging tree.
struct PayloadDestination: Sendable {
    /// The incoming directory (in place), or nil for the staging tree's buckets.
    var flat: DirectoryHandle?
    /// The staging tree's buckets (also where unchanged payloads are linked).
    var buckets: PayloadBuckets

    /// Creates the new payload file for `fileID` (it must not exist).
    func create(_ fileID: String) throws(FileSystemError) -> FileDescriptor {
        let directory: FileDescriptor
        if let flat { directory = flat.descriptor } else { directory = try buckets.bucket(for: fileID) }
        return try directory.open(fileID, .writeOnly, options: [.create, .exclusiveCreate, .noFollow], permissions: 0o644)
    }

    /// The payload's path, for messages.
    func path(_ fileID: String) -> String {
        flat.map { $0.path + "/" + fileID } ?? buckets.directory.path + "/" + BackupFileID.payloadPath(fileID)
    }
}

/// What copying one entry came to.
enum PayloadCopyResult {
    case copied(CopiedPayload)
    /// The file changed between the walk and the read; nothing was written.
    case skipped(BackupSkippedFile)
}

extension BackupPlan {
    /// Copies one entry's payload: its source opened as the walk saw it
    /// (see ``PayloadCopier``), or its in-memory bytes.
    func copyPayload(_ entry: ScannedEntry, with copier: PayloadCopier,
                     into destination: PayloadDestination) throws -> PayloadCopyResult {
        var input: (descriptor: FileDescriptor, status: FileStatus)?
        if entry.contents == nil {
            do { input = try copier.openSource(entry) } catch {
                // Gone, swapped (ESTALE), a link now (ELOOP), a directory
                // or a file where a directory was, or led outside (EXDEV).
                guard error.isChangedSinceScan || error.isNotFound || error.isLoop || error.isNotDirectory
                        || error.isEscape || error.isDirectory else {
                    throw MobileBackupError.io(error, (entry.root?.path ?? "") + "/" + entry.relativePath)
                }
                return .skipped(BackupSkippedFile(domain: entry.domain, relativePath: entry.relativePath,
                                                  reason: .changedSinceScan, message: error.description))
            }
        }
        defer { input?.descriptor.closeQuietly() }
        let path = destination.path(entry.fileID)
        let output = try backupIO(path) { () throws(FileSystemError) in try destination.create(entry.fileID) }
        defer { output.closeQuietly() }
        do {
            return .copied(try copier.copy(from: input, contents: entry.contents, to: output, encryption: encryption,
                                           protectionClass: entry.protectionClass))
        } catch let error as FileSystemError {
            throw MobileBackupError.io(error, path)
        }
    }
}

extension BackupPlan {
    /// The disk a backup's new payloads and rows take, counted before any is
    /// written: a plain payload keeps its source's holes, so a sparse file
    /// counts its allocated bytes, not its size; an encrypted payload
    /// cannot (ciphertext has no holes), so it counts its whole padded size.
    /// Each payload is rounded up to whole 4 KiB blocks, and each row counts
    /// 1 KiB of Manifest.db.
    func bytesNeeded(copying indices: [Int]) -> UInt64 {
        let block: UInt64 = 4_096
        var total = UInt64(entries.count) * 1_024
        for index in indices {
            let entry = entries[index]
            let size = entry.status?.size ?? UInt64(entry.contents?.count ?? 0)
            let stored: UInt64
            if encryption != nil {
                stored = (size / 16 + 1) * 16
            } else if let status = entry.status, status.allocatedBytes < status.size {
                stored = status.allocatedBytes
            } else {
                stored = size
            }
            total += (stored + block - 1) / block * block
        }
        return total
    }

    /// Refuses (``MobileBackupErrorCode/insufficientSpace``), before any
    /// payload is written, a backup whose new payloads and rows the file
    /// system of `target` cannot hold: a disk filled half-way would stop the
    /// backup anyway, after minutes of writing, and leave every other writer
    /// on that disk without space.
    func checkFreeSpace(copying indices: [Int], into target: DirectoryHandle) throws {
        let needed = bytesNeeded(copying: indices)
        let space = try backupIO(target.path) { () throws(FileSystemError) in try target.descriptor.space() }
        guard needed > space.available else { return }
        let kind = encryption == nil ? "sparse files counted by their data" : "encrypted, so sparse files count their whole size"
        throw MobileBackupError(.insufficientSpace, path: target.path,
                                "the backup needs about \(needed) bytes for \(indices.count) payloads (\(kind)) "
                                + "and the file system has \(space.available) bytes free; nothing was copied")
    }
}
