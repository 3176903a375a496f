import CloudProtocol
import Device
import FileSystem
import SystemPackage
import Foundation
import MobileBackup

/// iCloud backup of a device: stage, chunk, send what the service lacks,
/// commit.
///
/// 1. The device is backed up in iOS's format into a staging directory
///    (`Device.backUp`, incremental against the previous staging): the
///    same content rules as a local backup — no Caches, no tmp, no
///    do-not-back-up files — and the keychain export without
///    `ThisDeviceOnly` items, sealed with a key from the account password
///    as a password-protected backup's is. Apps whose backup is off are
///    left out.
/// 2. Each file is cut into 1 MiB chunks named by the HMAC of their
///    plaintext; a file unchanged since the last snapshot keeps its chunks
///    without being read.
/// 3. One upload session asks the service which chunks it lacks, sends
///    only those (encrypted, several at once), then the encrypted manifest,
///    then commits. An interrupted backup leaves the previous snapshot
///    current; the next one sends only what is still missing.
public enum CloudBackup {
    /// Backs `device` up to the account it is signed in to.
    ///
    /// - Parameter now: back up even when the device is not locked, on
    ///   power and on Wi-Fi (iOS waits for all three).
    public static func backUp(device: Device, account: CloudAccount, now: Bool = false, concurrency: Int = 8,
                              progress: (@Sendable (CloudProgress) -> Void)? = nil) async throws(CloudBackupError) -> CloudBackupReport {
        let started = Date()
        if !now {
            let blocker: String?
            do { blocker = try device.network.cloudBackupBlocker } catch {
                throw CloudBackupError(.io, "cannot read the device's conditions").caused(by: error)
            }
            if let blocker {
                throw CloudBackupError(.conditionsNotMet, "iCloud backup waits: \(blocker) (iOS backs up when the device is locked, "
                                       + "on power and on Wi-Fi; --now backs up anyway)")
            }
        }
        let keys = try account.keys()
        let cipher = ChunkCipher(keys: keys)
        let client = account.client
        let appsOff = try await client.appsOff(device: account.deviceID)

        progress?(CloudProgress(phase: .staging, done: 0, total: 1))
        // Staging and chunking read and write the whole device: on
        // BlockingIO's threads, never on the cooperative pool.
        let (stagedApps, files, previous) = try await BlockingIO.run {
            () throws(CloudBackupError) -> ([String], [ChunkedFile], LastSnapshot?) in
            let staging = CloudAccount.directory(of: device) + "/Staging"
            let stagedApps: [String]
            do {
                try FileSystemPaths.makeDirectories(atPath: staging, permissions: 0o700)
                _ = try device.backUp(to: URL(fileURLWithPath: staging), keychainPassword: keys.keychainPassword, excludingApps: Set(appsOff))
                stagedApps = try device.installedApps().map(\.bundleID).filter { !appsOff.contains($0) }.sorted()
            } catch let error as CloudBackupError {
                throw error
            } catch {
                throw CloudBackupError(.io, "cannot stage the backup").caused(by: error)
            }
            let root = staging + "/" + device.identity.udid
            let previous = LastSnapshot.load(device: device)
            let files = try chunkFiles(root: root, previous: previous, cipher: cipher, progress: progress)
            return (stagedApps, files, previous)
        }
        var manifest = SnapshotManifest(udid: device.identity.udid, deviceName: device.identity.name, created: Int64(started.timeIntervalSince1970),
                                        apps: stagedApps, files: files.map(\.entry))
        manifest.files.sort { $0.path < $1.path }

        let session = try await client.openSession().sessionID
        do {
            var report = try await send(files: files, manifest: manifest, session: session, client: client, cipher: cipher,
                                        concurrency: concurrency, progress: progress)
            report.appsOff = appsOff
            report.filesUnchanged = files.filter { file in previous?.files[file.entry.path] == file.entry }.count
            let status = try await client.account()
            report.usedBytes = status.usedBytes
            report.quotaBytes = status.quotaBytes
            report.seconds = Date().timeIntervalSince(started)
            let finished = LastSnapshot(manifest: manifest)
            await BlockingIO.run { finished.save(device: device) }
            return report
        } catch {
            // The previous snapshot stays current; what was sent stays
            // stored for the next attempt until the session expires.
            try? await client.abandon(session: session)
            throw error
        }
    }

    /// Chunks every file of the staged backup, reusing the previous
    /// snapshot's chunks for files whose size and modification time match.
    static func chunkFiles(root: String, previous: LastSnapshot?, cipher: ChunkCipher,
                           progress: (@Sendable (CloudProgress) -> Void)?) throws(CloudBackupError) -> [ChunkedFile] {
        var found: [(path: String, status: FileStatus)] = []
        do {
            let directory = try FileDescriptor.openDirectory(atPath: root, followLinks: false)
            defer { directory.closeQuietly() }
            try directory.walkTree { entry, _ in
                if entry.status.isRegularFile && !FileDescriptor.isTemporaryName(entry.name) { found.append((entry.path, entry.status)) }
                return .descend
            }
        } catch {
            throw CloudBackupError(.io, "cannot walk the staged backup \(root)").caused(by: error)
        }
        let total = found.reduce(Int64(0)) { $0 + Int64($1.status.size) }
        var done: Int64 = 0
        var files: [ChunkedFile] = []
        for (path, status) in found {
            if let last = previous?.files[path], last.size == Int64(status.size), last.modified == status.modificationNanoseconds {
                files.append(ChunkedFile(entry: last, path: root + "/" + path))
            } else {
                files.append(try ChunkedFile.chunk(path: root + "/" + path, relativePath: path, status: status, cipher: cipher))
            }
            done += Int64(status.size)
            progress?(CloudProgress(phase: .chunking, done: done, total: total))
        }
        return files
    }

    /// Sends the chunks the service lacks, then the manifest, then commits.
    static func send(files: [ChunkedFile], manifest: SnapshotManifest, session: Int64, client: CloudClient, cipher: ChunkCipher,
                     concurrency: Int, progress: (@Sendable (CloudProgress) -> Void)?) async throws(CloudBackupError) -> CloudBackupReport {
        // Where each chunk's bytes are: its first occurrence.
        var sources: [ChunkID: (file: Int, index: Int)] = [:]
        for (fileIndex, file) in files.enumerated() {
            for (index, id) in file.entry.chunks.enumerated() where sources[id] == nil { sources[id] = (fileIndex, index) }
        }
        let all = Array(sources.keys).sorted()
        var missing: [ChunkID] = []
        for start in stride(from: 0, to: all.count, by: 20_000) {
            missing += try await client.known(Array(all[start..<min(start + 20_000, all.count)]), session: session)
        }
        let totalBytes = Int64(missing.count) * Int64(CloudLimits.chunkBytes)
        let tally = UploadTally()
        progress?(CloudProgress(phase: .uploading, done: 0, total: totalBytes))
        do {
            try await withThrowingTaskGroup(of: ChunkStored.self) { group in
                var next = 0
                func addNext() {
                    guard next < missing.count else { return }
                    let id = missing[next]
                    next += 1
                    guard let source = sources[id] else { return }
                    let file = files[source.file]
                    group.addTask {
                        // The read (a pread) and the sealing off the pool.
                        let sealed = try await BlockingIO.run { () throws(CloudBackupError) in
                            try cipher.seal(try file.piece(source.index), id: id)
                        }
                        return try await client.upload(sealed, id: id, session: session)
                    }
                }
                for _ in 0..<max(1, concurrency) { addNext() }
                while let stored = try await group.next() {
                    let snapshot = tally.add(stored)
                    progress?(CloudProgress(phase: .uploading, done: min(snapshot.bytes, totalBytes), total: totalBytes))
                    addNext()
                }
            }
        } catch let error as CloudBackupError {
            throw error
        } catch {
            throw CloudBackupError(.network, "the upload failed").caused(by: error)
        }

        progress?(CloudProgress(phase: .committing, done: 0, total: 1))
        let manifestBytes: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            manifestBytes = try encoder.encode(manifest)
        } catch {
            throw CloudBackupError(.badInput, "cannot encode the manifest").caused(by: error)
        }
        let manifestID = cipher.id(of: manifestBytes)
        let stored = try await client.upload(try cipher.seal(manifestBytes, id: manifestID), id: manifestID, session: session)
        _ = tally.add(stored)
        let snapshot = try await client.commit(CommitRequest(manifest: manifestID, chunks: all, files: Int64(files.count), bytes: manifest.bytes),
                                               session: session)
        let sent = tally.current
        return CloudBackupReport(snapshot: snapshot, files: Int64(files.count), bytes: manifest.bytes, chunks: all.count + 1,
                                 chunksSent: sent.chunks, bytesSent: sent.bytes, chunksAlreadyStored: all.count - missing.count + sent.deduplicated,
                                 filesUnchanged: 0, appsOff: [], usedBytes: 0, quotaBytes: 0, seconds: 0)
    }
}

/// Counts what an upload sent, from several tasks.
final class UploadTally: Sendable {
    private let sent = Locked((chunks: 0, bytes: Int64(0), deduplicated: 0))

    func add(_ stored: ChunkStored) -> (chunks: Int, bytes: Int64, deduplicated: Int) {
        sent.withLock { sent in
            if stored.deduplicated { sent.deduplicated += 1 } else {
                sent.chunks += 1
                sent.bytes += stored.bytes
            }
            return sent
        }
    }

    var current: (chunks: Int, bytes: Int64, deduplicated: Int) { sent.withLock { $0 } }
}
