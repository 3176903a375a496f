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
/// // `layout` says what comes back; Device's `RestoreLayout.container(.app)`
/// // derives it from the container's rules table.
/// let report = try restorer.restoreApp(bundleID: "com.example.notes", into: try DirectoryHandle(openingAt: containerPath),
///                                      layout: layout)
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

    /// Restores `AppDomain-<bundleID>` into the data container held by
    /// `container`, as `layout` says: on iOS, Documents and Library (but not
    /// Library/Caches) replace the container's, Caches and tmp come back
    /// empty, the layout is made again, and the bundle and the container's
    /// own metadata are not touched.
    ///
    /// Everything is written beneath the held root with `*at` calls: the
    /// files are extracted into a staging directory on the same file system
    /// (in ``RestoreLayout/stagingDirectory``), the replaced entries are
    /// removed without following links, and the staged ones renamed into
    /// place. A link the app put where a layout directory belongs is
    /// removed, never followed, so nothing is written outside the container.
    ///
    /// - Throws: ``MobileBackupError`` `notFound` when the backup has no
    ///   such domain, `ioFailed` when the container cannot be written.
    public func restoreApp(bundleID: String, into container: DirectoryHandle, layout: RestoreLayout,
                           progress: ((Int64) -> Void)? = nil) throws -> RestoreReport {
        let domain = Self.appDomain(bundleID)
        var report = try restoreTree(domain: domain, root: container, layout: layout, progress: progress)
        report.domains = [domain]
        return report
    }

    /// Restores `AppDomainGroup-<groupID>` into the group container at
    /// `directory` (created if missing; see ``restoreGroup(_:into:layout:progress:)-(_,DirectoryHandle,_,_)``).
    public func restoreGroup(_ groupID: String, into directory: URL, layout: RestoreLayout,
                             progress: ((Int64) -> Void)? = nil) throws -> RestoreReport {
        let handle = try DirectoryHandle.making(directory.standardizedFileURL.path, "open the group container")
        return try restoreGroup(groupID, into: handle, layout: layout, progress: progress)
    }

    /// Restores `AppDomainGroup-<groupID>` into the group container held by
    /// `directory`, as `layout` says (on iOS: its contents replaced but not
    /// its container-manager metadata, Library/Caches and tmp empty).
    /// Written beneath the held directory only, as
    /// ``restoreApp(bundleID:into:layout:progress:)`` is.
    public func restoreGroup(_ groupID: String, into directory: DirectoryHandle, layout: RestoreLayout,
                             progress: ((Int64) -> Void)? = nil) throws -> RestoreReport {
        let domain = Self.groupDomain(groupID)
        var report = try restoreTree(domain: domain, root: directory, layout: layout, progress: progress)
        report.domains = [domain]
        return report
    }

    /// Extracts the rows of `domain` that `layout` restores into a staging
    /// directory, then replaces the top-level entries of `root` that it
    /// replaces with the staged ones, and makes its directories again.
    private func restoreTree(domain: String, root: DirectoryHandle, layout: RestoreLayout,
                             progress: ((Int64) -> Void)?) throws -> RestoreReport {
        let keep = layout.restores, replacing = layout.replaces
        let stagingDirectory = layout.stagingDirectory
        try checkSnapshotFinished()
        guard reader.domains.contains(domain) else {
            throw MobileBackupError(.notFound, domain: domain, "the backup has no domain \(domain)")
        }
        var report = RestoreReport()
        report.skippedPaths = reader.records(inDomain: domain).filter { !keep($0.relativePath) }
            .map { "\(domain)/\($0.relativePath)" }
        let top = root.descriptor
        let stagingName = ".sandbox-restore-\(UUID().uuidString)"
        let stagingParent = try backupIO(root.path + (stagingDirectory.map { "/" + $0 } ?? "")) { () throws(FileSystemError) in
            if let stagingDirectory { return try top.ensureDirectory(stagingDirectory) }
            return try root.open("", .readOnly, options: .directory)
        }
        defer {
            _ = try? stagingParent.removeTree(stagingName)
            stagingParent.closeQuietly()
        }
        let stagingPath = root.path + (stagingDirectory.map { "/" + $0 + "/" } ?? "/") + stagingName
        let staging = try backupIO(stagingPath) { () throws(FileSystemError) in
            try stagingParent.makeDirectory(stagingName, permissions: 0o700)
            return DirectoryHandle(adopting: try stagingParent.openDirectory(stagingName), path: stagingPath)
        }
        var extracted = BackupVerificationReport(verifiedFiles: 0, verifiedBytes: 0, problems: [], uncheckedDigests: 0)
        if reader.records(inDomain: domain).contains(where: { keep($0.relativePath) }) {
            // The staging directory is new and private: files are created in it, not replaced.
            extracted = try reader.extract(domain: domain, into: staging, including: keep, layoutPaths: Set(layout.directories), fresh: true,
                                           progress: progress)
        }
        report.restoredFiles = extracted.verifiedFiles
        report.restoredBytes = extracted.verifiedBytes
        report.problems = extracted.problems
        report.uncheckedDigests = extracted.uncheckedDigests

        try backupIO(root.path) { () throws(FileSystemError) in
            for name in try top.sortedEntries() where replacing(name) {
                if name == stagingDirectory {
                    // The staging directory lives here; it is emptied around it.
                    for inner in try stagingParent.sortedEntries() where inner != stagingName {
                        _ = try stagingParent.removeTree(inner)
                    }
                    continue
                }
                if stagingDirectory == nil && name == stagingName { continue }
                _ = try top.removeTree(name)
            }
            for name in try staging.descriptor.sortedEntries() where replacing(name) && name != stagingDirectory {
                try Self.move(name, from: staging.descriptor, to: top)
            }
            for path in layout.directories { try Self.makeLayoutDirectory(path, in: top) }
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
