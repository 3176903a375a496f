import Crypto
import FileSystem
import Foundation
import SystemPackage
import PropertyList

/// Reads a backup in iOS's format, ours or one made by iTunes or Finder
/// (which may lack `Manifest.plist` or `Status.plist`): lists its domains
/// and files, and reads, verifies or extracts payloads.
///
/// Every payload is checked against its record, by size and, where the
/// backup records one, by SHA-1 digest; a damaged payload is reported per
/// file and never returned or written out.
///
/// ```swift
/// let backup = try BackupReader(directory: backupURL, password: "secret")
/// let report = try backup.extract(domain: "AppDomain-com.example.notes", to: outputURL)
/// ```
public struct BackupReader: Sendable {
    /// The backup directory.
    public let directory: URL
    /// What the backup's property lists say.
    public let info: BackupInfo
    /// Every Files row, sorted by domain, then path.
    public let records: [BackupFileRecord]
    /// The domains, sorted.
    public let domains: [String]
    /// Where each domain's rows are in ``records``.
    private let domainRanges: [String: Range<Int>]
    /// The unlocked keybag of an encrypted backup.
    let keys: BackupEncryption?
    /// The backup directory, held open: payloads are read beneath it,
    /// through buckets opened without following links.
    let handle: DirectoryHandle
    private let buckets: PayloadBuckets

    /// Opens the backup at `directory`; an encrypted backup needs `password`.
    public init(directory: URL, password: String? = nil) throws {
        self.directory = directory
        let root = directory.standardizedFileURL.path
        do {
            handle = try DirectoryHandle(openingAt: root)
        } catch {
            throw MobileBackupError(.notABackup, path: root, "no backup directory here")
        }
        buckets = PayloadBuckets(handle, creates: false)
        // Opening a backup only reads it: an interrupted incremental commit
        // (`Sandbox.incoming/`) is left alone here, and finished only by the
        // next write (`BackupWriter`); a hostile backup's journal never moves
        // or deletes a file because someone looked at it.
        let databasePath = root + "/Manifest.db"
        let held = handle
        // A link, a FIFO or a device there is refused by name (notARegularFile).
        let databaseStatus = try handle.backupFileStatus("Manifest.db")
        guard databaseStatus != nil else {
            if (try? handle.descriptor.statusIfPresent(of: "Manifest.mbdb")) ?? nil != nil {
                throw MobileBackupError(.unsupportedFormat, path: root, "a Manifest.mbdb backup (before iOS 10) is not supported")
            }
            throw MobileBackupError(.notABackup, path: root, "the directory has no Manifest.db")
        }
        let infoPlist = try BackupPropertyLists.read("Info.plist", in: handle)
        let manifest = try BackupPropertyLists.read("Manifest.plist", in: handle)
        let status = try BackupPropertyLists.read("Status.plist", in: handle)
        info = BackupInfo.load(info: infoPlist, manifest: manifest, status: status, directoryName: directory.lastPathComponent)

        // Any copy SQLite must open by path lives in a private directory that
        // goes when this initializer returns or throws.
        var scratch: PrivateScratch?
        var rowsPath = databasePath
        if info.isEncrypted {
            guard let password else {
                throw MobileBackupError(.passwordRequired, path: root, "the backup is encrypted; a password is needed")
            }
            guard let bagData = manifest?["BackupKeyBag"]?.dataValue else {
                throw MobileBackupError(.malformedKeyBag, path: root + "/Manifest.plist", "the encrypted backup has no BackupKeyBag")
            }
            let bag = try BackupKeyBag.parse(bagData)
            let encryption = BackupEncryption(keyBag: bag, classKeys: try bag.unlock(password: password))
            keys = encryption
            if let manifestKey = manifest?["ManifestKey"]?.dataValue {
                let privateCopy = try PrivateScratch()
                scratch = privateCopy
                rowsPath = try ManifestDatabase.decryptedCopy(in: handle, key: try encryption.unwrap(blob: manifestKey), into: privateCopy)
            }
        } else {
            keys = nil
            if manifest == nil, try !ManifestDatabase.isPlainSQLite(in: handle) {
                // Only Manifest.plist says a backup is encrypted; without it an
                // encrypted Manifest.db would read as a damaged database.
                throw MobileBackupError(.malformedManifest, path: root + "/Manifest.plist",
                                        "the backup has no Manifest.plist, and its Manifest.db is not a plain SQLite database "
                                        + "(an encrypted backup needs Manifest.plist for its keys)")
            }
        }
        let rows: [ManifestRow]
        do {
            rows = try ManifestDatabase.rows(at: rowsPath, named: databasePath)
        } catch {
            // A WAL-mode database in a read-only directory cannot be opened in
            // place; a private copy can.
            guard scratch == nil, let privateCopy = try? PrivateScratch(),
                  (try? held.descriptor.copyFile("Manifest.db", to: privateCopy.handle.descriptor, "Manifest.db")) != nil else { throw error }
            scratch = privateCopy
            for suffix in ["-wal", "-shm"] {
                try? held.descriptor.copyFile("Manifest.db" + suffix, to: privateCopy.handle.descriptor, "Manifest.db" + suffix)
            }
            rows = try ManifestDatabase.rows(at: privateCopy.path("Manifest.db"), named: databasePath)
        }
        withExtendedLifetime(scratch) {}
        var records = try Self.unarchive(rows)
        records.sort { $0.domain != $1.domain ? $0.domain < $1.domain : $0.relativePath < $1.relativePath }
        self.records = records
        // One pass over the sorted rows: each domain's rows are one range, so
        // look-ups by domain or path never scan the whole manifest again.
        var ranges: [String: Range<Int>] = [:]
        var start = 0
        for index in records.indices where index + 1 == records.count || records[index + 1].domain != records[index].domain {
            ranges[records[index].domain] = start..<index + 1
            start = index + 1
        }
        domainRanges = ranges
        domains = ranges.keys.sorted()
    }

    /// Every row's MBFile archive, read in one pass split across the cores
    /// (each row is independent); the first damaged row's error is thrown.
    private static func unarchive(_ rows: [ManifestRow]) throws -> [BackupFileRecord] {
        let chunk = 4_096
        let chunks = (rows.count + chunk - 1) / chunk
        // Each slot is written by one worker and read after all finished.
        let results = Locked<[Result<[BackupFileRecord], Error>]>(Array(repeating: .success([]), count: chunks))
        DispatchQueue.concurrentPerform(iterations: chunks) { index in
            let range = index * chunk..<min(rows.count, (index + 1) * chunk)
            let result = Result {
                try rows[range].map { row in
                    guard let blob = row.file else {
                        throw MobileBackupError(.malformedRecord, domain: row.domain, relativePath: row.relativePath,
                                                "the row has no MBFile archive")
                    }
                    return try BackupFileRecord.unarchive(blob, domain: row.domain, relativePath: row.relativePath, flags: row.flags)
                }
            }
            results.withLock { $0[index] = result }
        }
        var records: [BackupFileRecord] = []
        records.reserveCapacity(rows.count)
        for result in results.withLock({ $0 }) { records += try result.get() }
        return records
    }

    /// The records of one domain, sorted by path (found by index, not by a scan).
    public func records(inDomain domain: String) -> [BackupFileRecord] {
        guard let range = domainRanges[domain] else { return [] }
        return Array(records[range])
    }

    /// The record of one path, if the backup has it (a binary search in its domain's rows).
    public func record(domain: String, relativePath: String) -> BackupFileRecord? {
        guard let rows = domainRanges[domain].map({ records[$0] }) else { return nil }
        var low = rows.startIndex
        var high = rows.endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if rows[middle].relativePath < relativePath { low = middle + 1 } else { high = middle }
        }
        return low < rows.endIndex && rows[low].relativePath == relativePath ? rows[low] : nil
    }

    /// A regular file's contents, verified; a damaged payload throws with
    /// the problem in the message.
    public func contents(of record: BackupFileRecord) throws -> Data {
        var data = Data()
        if let problem = readPayload(record, into: { data.append(contentsOf: $0) }) {
            throw MobileBackupError(.malformedRecord, domain: record.domain, relativePath: record.relativePath, problem.description)
        }
        return data
    }

    /// A regular file's contents, verified, or what is wrong with its payload.
    public func verifiedContents(of record: BackupFileRecord) -> Result<Data, BackupPayloadProblem> {
        var data = Data()
        if let problem = readPayload(record, into: { data.append(contentsOf: $0) }) { return .failure(problem) }
        return .success(data)
    }

    /// Checks every regular file's payload and reports each damaged one.
    /// `progress` is told the recorded size of each file checked.
    public func verify(progress: ((Int64) -> Void)? = nil) -> BackupVerificationReport {
        var report = BackupVerificationReport(verifiedFiles: 0, verifiedBytes: 0, problems: [], uncheckedDigests: 0)
        for record in records where record.kind == .file {
            defer { progress?(record.size) }
            var digestUnchecked = false
            if let problem = readPayload(record, digestUnchecked: &digestUnchecked, into: { _ in }) {
                report.problems.append(problem)
            } else {
                report.verifiedFiles += 1
                report.verifiedBytes += record.size
                if digestUnchecked { report.uncheckedDigests += 1 }
            }
        }
        return report
    }

    private func readPayload(_ record: BackupFileRecord, into sink: (UnsafeRawBufferPointer) throws -> Void) -> BackupPayloadProblem? {
        var unchecked = false
        return readPayload(record, digestUnchecked: &unchecked, into: sink)
    }

    /// Streams a payload's plaintext to `sink`, checking size, padding and
    /// digest on the way; returns the problem if there is one.
    ///
    /// `hole` is told the length of each hole of a sparse plain payload, in
    /// order between the pieces; without it, holes reach `sink` as zeros.
    func readPayload(_ record: BackupFileRecord, digestUnchecked: inout Bool, hole: ((UInt64) throws -> Void)? = nil,
                     into sink: (UnsafeRawBufferPointer) throws -> Void) -> BackupPayloadProblem? {
        let fileID = record.fileID
        func problem(_ kind: BackupPayloadProblem.Kind, _ message: String) -> BackupPayloadProblem {
            BackupPayloadProblem(domain: record.domain, relativePath: record.relativePath, fileID: fileID, kind: kind, message: message)
        }
        // The bucket and the payload are opened without following links: a
        // bucket or payload that is a link counts as missing. An empty plain
        // file's payload is only looked at (one `fstatat`, no open): its
        // status is all there is to check, and a restore of many small
        // files spends most of its time in such calls.
        let input: FileDescriptor?
        let stored: FileStatus
        func missing() -> BackupPayloadProblem { problem(.missing, "no payload at \(BackupFileID.payloadPath(fileID))") }
        do {
            let bucket = try buckets.bucket(for: fileID)
            if keys == nil && record.size == 0 {
                guard let status = try bucket.statusIfPresent(of: fileID) else { return missing() }
                input = nil
                stored = status
            } else {
                let opened = try bucket.open(fileID, .readOnly, options: [.noFollow, .nonBlocking])
                input = opened
                do { stored = try opened.status() } catch { opened.closeQuietly(); return problem(.unreadable, "\(error)") }
            }
        } catch {
            if error.isNotFound || error.isLoop || error.isNotDirectory { return missing() }
            return problem(.unreadable, "\(error)")
        }
        defer { input?.closeQuietly() }
        guard stored.isRegularFile else { return missing() }
        let storedSize = Int64(stored.size)
        var cipher: CBCStream?
        if let keys {
            let expected = (record.size / 16 + 1) * 16
            if storedSize < expected { return problem(.truncated, "\(storedSize) bytes stored, \(expected) expected") }
            if storedSize > expected { return problem(.sizeMismatch, "\(storedSize) bytes stored, \(expected) expected") }
            guard let blob = record.encryptionKey else { return problem(.undecryptable, "the row has no EncryptionKey") }
            do {
                cipher = try CBCStream(key: try keys.unwrap(blob: blob))
            } catch {
                return problem(.undecryptable, "the file key does not unwrap: \(error)")
            }
        } else {
            if storedSize < record.size { return problem(.truncated, "\(storedSize) bytes stored, \(record.size) recorded") }
            if storedSize > record.size { return problem(.sizeMismatch, "\(storedSize) bytes stored, \(record.size) recorded") }
        }
        var hasher = Insecure.SHA1()
        var plainSize: Int64 = 0
        var holes = BackupSparseFiles.HoleHasher()
        do {
            // No bigger than the payload: most files are small, and a 1 MiB
            // buffer per file would cost more to clear than to read them.
            let pieceSize = Int(min(Int64(1 << 20), max(storedSize, 16)))
            var buffer = [UInt8](repeating: 0, count: pieceSize)
            if cipher == nil, let input {
                // A plain payload is read extent by extent: its holes (a
                // sparse file's, kept by the writer) go to `hole` unread.
                plainSize = try readSparse(input, size: UInt64(storedSize), seekingHoles: stored.allocatedBytes < stored.size,
                                           buffer: &buffer, hasher: &hasher, holes: &holes, hole: hole, into: sink)
                if plainSize < storedSize { return problem(.truncated, "the payload ended at \(plainSize) bytes while being read") }
            }
            var offset: Int64 = 0
            while let input, cipher != nil && offset < storedSize {
                let count = try buffer.withUnsafeMutableBytes { raw -> Int in try input.readFully(into: raw) }
                if count == 0 { return problem(.truncated, "the payload ended at \(offset) bytes while being read") }
                offset += Int64(count)
                let piece = buffer[0..<count]
                let plain: Data
                do {
                    plain = try cipher?.decrypt(piece, isLast: offset >= storedSize) ?? Data()
                } catch {
                    return problem(.undecryptable, "\(error)")
                }
                hasher.update(data: plain)
                plainSize += Int64(plain.count)
                try plain.withUnsafeBytes { try sink($0) }
            }
        } catch {
            return problem(.unreadable, "\(error)")
        }
        if plainSize != record.size {
            return problem(.sizeMismatch, "\(plainSize) bytes decrypted, \(record.size) recorded")
        }
        if record.digest?.count == 20, !holes.isHashed {
            // Holes too large to hash (see BackupSparseFiles): checked by size alone.
            digestUnchecked = true
        } else if let digest = record.digest, digest.count == 20 {
            let actual = Data(hasher.finalize())
            if actual != digest {
                // Only this module's backups are known to record the SHA-1 of
                // the plaintext; for others the field's meaning is unverified.
                if info.writtenBySandbox { return problem(.digestMismatch, "the contents' SHA-1 differs from the recorded Digest") }
                digestUnchecked = true
            }
        }
        return nil
    }
}

extension BackupReader {
    /// Streams the plain payload `input` of `size` bytes: each data extent
    /// read (`SEEK_DATA`/`SEEK_HOLE`) and passed to `sink`, each hole passed
    /// to `hole` (or as zeros to `sink`) and hashed as zeros while `holes`
    /// allows. Returns the bytes delivered: fewer than `size` when the
    /// payload ended early. Without `seekingHoles` (a file with as many
    /// bytes allocated as its size has no holes) it is one extent, read
    /// without the two `lseek` calls.
    fileprivate func readSparse(_ input: FileDescriptor, size: UInt64, seekingHoles: Bool, buffer: inout [UInt8], hasher: inout Insecure.SHA1,
                                holes: inout BackupSparseFiles.HoleHasher, hole: ((UInt64) throws -> Void)?,
                                into sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64 {
        var position: UInt64 = 0
        while position < size {
            let extent = seekingHoles ? try input.dataExtent(from: position, size: size) : DataExtent(offset: position, length: size - position)
            let dataStart = extent?.offset ?? size
            if dataStart > position {
                let gap = dataStart - position
                holes.add(gap, to: &hasher)
                if let hole { try hole(gap) } else { try Self.zeros(gap, into: sink) }
                position = dataStart
            }
            guard let extent else { break }
            while position < extent.end {
                let wanted = Int(min(UInt64(buffer.count), extent.end - position))
                let count = try buffer.withUnsafeMutableBytes { raw -> Int in
                    try input.readFully(into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<wanted]), at: position)
                }
                if count == 0 { return Int64(position) }
                try buffer.withUnsafeBytes { raw in
                    let piece = UnsafeRawBufferPointer(rebasing: raw[0..<count])
                    hasher.update(bufferPointer: piece)
                    try sink(piece)
                }
                position += UInt64(count)
            }
        }
        return Int64(position)
    }

    /// `count` zero bytes to `sink`, in pieces of at most 1 MiB.
    private static func zeros(_ count: UInt64, into sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        var left = count
        try BackupSparseFiles.zeros.withUnsafeBytes { zeroBytes in
            while left > 0 {
                let piece = Int(min(left, UInt64(zeroBytes.count)))
                try sink(UnsafeRawBufferPointer(rebasing: zeroBytes[0..<piece]))
                left -= UInt64(piece)
            }
        }
    }
}
