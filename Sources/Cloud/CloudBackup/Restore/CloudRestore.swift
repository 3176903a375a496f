import CloudProtocol
import Device
import FileSystem
import Foundation
import MobileBackup

/// What a restore from iCloud did.
public struct CloudRestoreReport: Codable, Sendable, Hashable {
    public var snapshot: SnapshotSummary
    /// The device the snapshot came from.
    public var sourceUDID: String
    public var sourceName: String
    /// Files and bytes written into the MobileBackup directory.
    public var files: Int
    public var bytes: Int64
    /// The MobileBackup directory the snapshot became (`…/<UDID>`).
    public var backupDirectory: String
    /// Apps whose data came back, apps of the snapshot not installed here.
    public var appsRestored: [String]
    public var appsNotInstalled: [String]
    /// The keychain's outcome (`restored`, `notInBackup`, …).
    public var keychain: String
    public var seconds: Double
}

/// Restore from iCloud: fetch a snapshot's chunks, rebuild its MobileBackup
/// directory, and restore the device from it.
public enum CloudRestore {
    /// Restores `device` from the current snapshot of `sourceDevice` (this
    /// device when nil) in its account.
    ///
    /// - Parameters:
    ///   - exportTo: keep the rebuilt MobileBackup directory here (as
    ///     `<exportTo>/<UDID>`) for other tools; by default it is rebuilt
    ///     beside the sign-in and replaced by the next restore.
    ///   - restoreDevice: false only exports.
    public static func restore(device: Device, account: CloudAccount, sourceDevice: Int64? = nil, exportTo: String? = nil,
                               restoreDevice: Bool = true, concurrency: Int = 8,
                               progress: (@Sendable (CloudProgress) -> Void)? = nil) async throws(CloudBackupError) -> CloudRestoreReport {
        let started = Date()
        let keys = try account.keys()
        let cipher = ChunkCipher(keys: keys)
        let client = account.client
        let source = sourceDevice ?? account.deviceID
        guard let summary = try await client.snapshots(device: source).last else {
            let others = try await client.account().devices.filter { $0.lastSnapshot != nil }
                .map { "\($0.name) (device \($0.deviceID))" }
            throw CloudBackupError(.noSnapshot, "device \(source) has no iCloud snapshot"
                                   + (others.isEmpty ? "" : "; devices with one: " + others.joined(separator: ", ")))
        }
        let manifest = try await fetchManifest(summary.manifest, client: client, cipher: cipher)
        let parent = exportTo ?? CloudAccount.directory(of: device) + "/Restore"
        let root = parent + "/" + manifest.udid
        guard SafePath.isName(manifest.udid) else { throw CloudBackupError(.damagedChunk, "the manifest names an unsafe device directory") }
        // File-system work runs on BlockingIO's threads, never on the cooperative pool.
        try await BlockingIO.run { () throws(CloudBackupError) in
            do throws(FileSystemError) {
                try FileSystemPaths.makeDirectories(atPath: parent, permissions: 0o700)
                try FileSystemPaths.removeTree(atPath: root)
                try FileSystemPaths.makeDirectories(atPath: root, permissions: 0o700)
            } catch {
                throw CloudBackupError(.io, "cannot prepare \(root)").caused(by: error)
            }
        }
        let bytes = try await download(manifest.files, into: root, client: client, cipher: cipher, concurrency: concurrency, progress: progress)
        var report = CloudRestoreReport(snapshot: summary, sourceUDID: manifest.udid, sourceName: manifest.deviceName, files: manifest.files.count,
                                        bytes: bytes, backupDirectory: root, appsRestored: [], appsNotInstalled: [], keychain: "notRestored",
                                        seconds: 0)
        if restoreDevice {
            progress?(CloudProgress(phase: .restoring, done: 0, total: 1))
            let restored = try await BlockingIO.run { () throws(CloudBackupError) in
                do {
                    return try device.restore(from: try BackupReader(directory: URL(fileURLWithPath: root)),
                                              keychainPassword: keys.keychainPassword)
                } catch {
                    throw CloudBackupError(.io, "cannot restore the device from the snapshot").caused(by: error)
                }
            }
            report.appsNotInstalled = restored.appsNotInstalled.sorted()
            report.appsRestored = manifest.apps.filter { !restored.appsNotInstalled.contains($0) }
            // nil: the keychain was not part of this restore.
            report.keychain = restored.keychain.map { "\($0)" } ?? "notRestored"
        }
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    static func fetchManifest(_ id: ChunkID, client: CloudClient, cipher: ChunkCipher) async throws(CloudBackupError) -> SnapshotManifest {
        let plaintext = try cipher.open(try await client.chunk(id), id: id)
        do { return try JSONDecoder().decode(SnapshotManifest.self, from: Data(plaintext)) } catch {
            throw CloudBackupError(.damagedChunk, "the snapshot's manifest is not readable").caused(by: error)
        }
    }

    /// Fetches every file's chunks (several files at once), checks each
    /// against its name, and writes the files beneath `root`. A path that
    /// is not a plain relative path is refused before anything is written.
    static func download(_ files: [SnapshotManifest.File], into root: String, client: CloudClient, cipher: ChunkCipher, concurrency: Int,
                         progress: (@Sendable (CloudProgress) -> Void)?) async throws(CloudBackupError) -> Int64 {
        for file in files where !SafePath.isRelative(file.path) {
            throw CloudBackupError(.damagedChunk, "the manifest names an unsafe path: \(file.path.prefix(200))")
        }
        let total = files.reduce(Int64(0)) { $0 + $1.size }
        do {
            try await withThrowingTaskGroup(of: Int64.self) { group in
                var next = 0
                func addNext() {
                    guard next < files.count else { return }
                    let file = files[next]
                    next += 1
                    group.addTask {
                        var contents = Data()
                        contents.reserveCapacity(Int(max(0, min(file.size, 1 << 30))))
                        for id in file.chunks { contents.append(contentsOf: try cipher.open(try await client.chunk(id), id: id)) }
                        guard Int64(contents.count) == file.size else {
                            throw CloudBackupError(.damagedChunk, "\(file.path): \(contents.count) bytes, the manifest says \(file.size)")
                        }
                        let path = root + "/" + file.path
                        let written = contents
                        try await BlockingIO.run { () throws(CloudBackupError) in
                            do throws(FileSystemError) {
                                try FileSystemPaths.makeDirectories(atPath: String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]), permissions: 0o700)
                                try FileSystemPaths.writeAtomically(written, toPath: path, options: AtomicWriteOptions(durability: .none, permissions: 0o600))
                            } catch {
                                throw CloudBackupError(.io, "cannot write \(path)").caused(by: error)
                            }
                        }
                        return file.size
                    }
                }
                for _ in 0..<max(1, concurrency) { addNext() }
                var done: Int64 = 0
                while let size = try await group.next() {
                    done += size
                    progress?(CloudProgress(phase: .downloading, done: done, total: total))
                    addNext()
                }
            }
        } catch let error as CloudBackupError {
            throw error
        } catch {
            throw CloudBackupError(.network, "the download failed").caused(by: error)
        }
        return total
    }
}

/// Paths a manifest may name: relative, without `.`/`..` or empty components.
enum SafePath {
    static func isRelative(_ path: String) -> Bool {
        !path.isEmpty && path.utf8.count <= 1024 && !path.hasPrefix("/")
            && path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { isName(String($0)) }
    }

    static func isName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.utf8.contains(0) && name.utf8.count <= 255
    }
}
