import FileSystem
import Foundation
import SystemPackage

/// Puts data from a backup back onto a device: an app's domain into its
/// data container and a group domain into its group container, each held
/// open by the caller. (The keychain export is carried as bytes; the
/// `Device` module imports it into a keychain.)
///
/// A restore is a full restore, as iOS does it: Documents and Library are
/// replaced by the backup's, Library/Caches and tmp come back empty, and
/// rows a backup should not hold there (Caches, tmp, anything outside
/// Documents and Library) are skipped and listed. Files are written to a
/// staging directory on the container's file system first and moved into
/// place when the domain is complete; a damaged payload is reported and
/// its file left out.
///
/// ```swift
/// let restorer = BackupRestorer(try BackupReader(directory: backupURL, password: "secret"))
/// let report = try restorer.restoreApp(bundleID: "com.example.notes", into: try DirectoryHandle(openingAt: containerPath))
/// ```
public struct BackupRestorer: Sendable {
    /// The backup read from.
    public let reader: BackupReader
    /// Whether to restore even from a backup whose `Status.plist` says its
    /// snapshot is not finished (see ``checkSnapshotFinished()``).
    public let force: Bool

    /// Creates a restorer over an open backup; `force` restores even an
    /// unfinished snapshot.
    public init(_ reader: BackupReader, force: Bool = false) {
        self.reader = reader
        self.force = force
    }

    /// Refuses (``MobileBackupErrorCode/unfinishedBackup``) a backup whose
    /// `Status.plist` gives a `SnapshotState` other than `finished`, as iOS
    /// does: its rows and payloads may be half of two states. A backup with
    /// no `Status.plist` (real backups may lack one) is not refused; nor is
    /// any backup when ``force`` is set. Every restore calls this first.
    public func checkSnapshotFinished() throws {
        guard !force, let state = reader.info.snapshotState, state != "finished" else { return }
        throw MobileBackupError(.unfinishedBackup, path: reader.directory.standardizedFileURL.path + "/Status.plist",
                                "the backup's snapshot is \"\(state)\", not \"finished\" (it may still be uploading); "
                                + "restore it anyway only with force (--force)")
    }

    /// The domain of an app's data container.
    public static func appDomain(_ bundleID: String) -> String { "AppDomain-" + bundleID }
    /// The domain of an app-group container.
    public static func groupDomain(_ groupID: String) -> String { "AppDomainGroup-" + groupID }

    /// The bundle IDs with an app domain in the backup.
    public var bundleIDs: [String] {
        reader.domains.compactMap { $0.hasPrefix("AppDomain-") ? String($0.dropFirst("AppDomain-".count)) : nil }
    }

    /// The group IDs with a group domain in the backup.
    public var groupIDs: [String] {
        reader.domains.compactMap { $0.hasPrefix("AppDomainGroup-") ? String($0.dropFirst("AppDomainGroup-".count)) : nil }
    }

    /// The directories of an app's data container, parents first: they
    /// come back after a restore, and no row replaces one of them with a
    /// link or a file.
    public static let appLayout = ["Documents", "Library", "Library/Preferences", "Library/Caches",
                                   "Library/Application Support", "tmp"]
    /// The directories of a group container a restore brings back.
    public static let groupLayout = ["Library", "Library/Caches"]

    /// Restores `AppDomain-<bundleID>` into the data container held by
    /// `container`: its Documents and Library (but not Library/Caches)
    /// replace the container's; Caches and tmp are left empty, and the
    /// layout (``appLayout``) is made again. The bundle and the container's
    /// own metadata are not touched.
    ///
    /// Everything is written beneath the held root with `*at` calls: the
    /// files are extracted into a staging directory in the container's
    /// `tmp` (on the same file system), the old Documents and Library are
    /// removed without following links, and the staged ones renamed into
    /// place. A link the app put where a layout directory belongs is
    /// removed, never followed, so nothing is written outside the container.
    ///
    /// - Throws: ``MobileBackupError`` `notFound` when the backup has no
    ///   such domain, `ioFailed` when the container cannot be written.
    public func restoreApp(bundleID: String, into container: DirectoryHandle,
                           progress: ((Int64) -> Void)? = nil) throws -> RestoreReport {
        let domain = Self.appDomain(bundleID)
        let replaced = ["Documents", "Library", "tmp"]
        var report = try restoreTree(domain: domain, root: container, stagesInTmp: true, layout: Self.appLayout, progress: progress,
                                     keep: { path in
                                         path.isEmpty || Self.isUnder(path, "Documents")
                                             || (Self.isUnder(path, "Library") && !Self.isUnder(path, "Library/Caches"))
                                     },
                                     replacing: { replaced.contains($0) })
        report.domains = [domain]
        return report
    }

    /// Restores `AppDomainGroup-<groupID>` into the group container at
    /// `directory` (created if missing; see ``restoreGroup(_:into:progress:)-(_,DirectoryHandle,_)``).
    public func restoreGroup(_ groupID: String, into directory: URL,
                             progress: ((Int64) -> Void)? = nil) throws -> RestoreReport {
        let handle = try DirectoryHandle.making(directory.standardizedFileURL.path, "open the group container")
        return try restoreGroup(groupID, into: handle, progress: progress)
    }

    /// Restores `AppDomainGroup-<groupID>` into the group container held by
    /// `directory`, replacing its contents (but not its container-manager
    /// metadata); Library/Caches and tmp come back empty. Written beneath
    /// the held directory only, as ``restoreApp(bundleID:into:progress:)`` is.
    public func restoreGroup(_ groupID: String, into directory: DirectoryHandle,
                             progress: ((Int64) -> Void)? = nil) throws -> RestoreReport {
        let domain = Self.groupDomain(groupID)
        var report = try restoreTree(domain: domain, root: directory, stagesInTmp: false, layout: Self.groupLayout, progress: progress,
                                     keep: { !Self.isUnder($0, "Library/Caches") && !Self.isUnder($0, "tmp") },
                                     replacing: { !$0.hasPrefix(".com.apple.") })
        report.domains = [domain]
        return report
    }

    /// Whether `path` is `directory` or below it.
    static func isUnder(_ path: String, _ directory: String) -> Bool {
        path == directory || path.hasPrefix(directory + "/")
    }

    /// Extracts the kept rows of `domain` into a staging directory (in
    /// `tmp`, or at the top), then replaces the top-level entries of `root`
    /// that `replacing` names with the staged ones, and makes `layout` again.
    private func restoreTree(domain: String, root: DirectoryHandle, stagesInTmp: Bool, layout: [String],
                             progress: ((Int64) -> Void)?,
                             keep: (String) -> Bool, replacing: (String) -> Bool) throws -> RestoreReport {
        try checkSnapshotFinished()
        guard reader.domains.contains(domain) else {
            throw MobileBackupError(.notFound, domain: domain, "the backup has no domain \(domain)")
        }
        var report = RestoreReport()
        report.skippedPaths = reader.records(inDomain: domain).filter { !keep($0.relativePath) }
            .map { "\(domain)/\($0.relativePath)" }
        let top = root.descriptor
        let stagingName = ".sandbox-restore-\(UUID().uuidString)"
        let stagingParent = try backupIO(root.path + (stagesInTmp ? "/tmp" : "")) { () throws(FileSystemError) in
            try stagesInTmp ? top.ensureDirectory("tmp") : root.open("", .readOnly, options: .directory)
        }
        defer {
            _ = try? stagingParent.removeTree(stagingName)
            stagingParent.closeQuietly()
        }
        let stagingPath = root.path + (stagesInTmp ? "/tmp/" : "/") + stagingName
        let staging = try backupIO(stagingPath) { () throws(FileSystemError) in
            try stagingParent.makeDirectory(stagingName, permissions: 0o700)
            return DirectoryHandle(adopting: try stagingParent.openDirectory(stagingName), path: stagingPath)
        }
        var extracted = BackupVerificationReport(verifiedFiles: 0, verifiedBytes: 0, problems: [], uncheckedDigests: 0)
        if reader.records(inDomain: domain).contains(where: { keep($0.relativePath) }) {
            // The staging directory is new and private: files are created in it, not replaced.
            extracted = try reader.extract(domain: domain, into: staging, including: keep, layoutPaths: Set(layout), fresh: true,
                                           progress: progress)
        }
        report.restoredFiles = extracted.verifiedFiles
        report.restoredBytes = extracted.verifiedBytes
        report.problems = extracted.problems
        report.uncheckedDigests = extracted.uncheckedDigests

        try backupIO(root.path) { () throws(FileSystemError) in
            for name in try top.sortedEntries() where replacing(name) {
                if stagesInTmp && name == "tmp" {
                    // The staging directory lives in tmp; tmp is emptied around it.
                    for inner in try stagingParent.sortedEntries() where inner != stagingName {
                        _ = try stagingParent.removeTree(inner)
                    }
                    continue
                }
                if !stagesInTmp && name == stagingName { continue }
                _ = try top.removeTree(name)
            }
            for name in try staging.descriptor.sortedEntries() where replacing(name) && name != "tmp" {
                try Self.move(name, from: staging.descriptor, to: top)
            }
            for path in layout { try Self.makeLayoutDirectory(path, in: top) }
        }
        return report
    }

    /// Renames `name` from `source` into `target`, replacing whatever is
    /// there (removed first, never followed: a link put in its place since
    /// the old tree went is unlinked, not written through).
    private static func move(_ name: String, from source: FileDescriptor, to target: FileDescriptor) throws(FileSystemError) {
        var attempts = 0
        while true {
            do {
                try source.rename(name, to: target, name)
                return
            } catch {
                attempts += 1
                guard attempts < 8, error.isExists || error.isNotDirectory || error.isDirectory else { throw error }
                _ = try target.removeTree(name)
            }
        }
    }

    /// Makes the layout directory at `relativePath` (and its parents) beneath `root`.
    private static func makeLayoutDirectory(_ relativePath: String, in root: FileDescriptor) throws(FileSystemError) {
        var opened: [FileDescriptor] = []
        defer { for fd in opened { fd.closeQuietly() } }
        var current = root
        for component in relativePath.split(separator: "/") {
            current = try current.ensureDirectory(String(component))
            opened.append(current)
        }
    }
}
