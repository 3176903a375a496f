import Container
import Foundation

/// Puts data from a backup back onto a device: an app's domain into its
/// data container, a group domain into its group container, and the
/// keychain export into a keychain (see `BackupRestorer+Keychain.swift`).
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
/// let report = try restorer.restoreApp(bundleID: "com.example.notes", into: container)
/// ```
public struct BackupRestorer: Sendable {
    /// The backup read from.
    public let reader: BackupReader

    /// Creates a restorer over an open backup.
    public init(_ reader: BackupReader) {
        self.reader = reader
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

    /// Restores `AppDomain-<bundleID>` into `container`: its Documents and
    /// Library (but not Library/Caches) replace the container's; Caches and
    /// tmp are left empty. The bundle and the container's own metadata are
    /// not touched.
    ///
    /// - Throws: ``MobileBackupError`` `notFound` when the backup has no
    ///   such domain, `ioFailed` when the container cannot be written.
    public func restoreApp(bundleID: String, into container: AppContainer,
                           progress: ((Int64) -> Void)? = nil) throws -> RestoreReport {
        let domain = Self.appDomain(bundleID)
        let root = container.root.standardizedFileURL.path
        let replaced = ["Documents", "Library", "tmp"]
        var report = try restoreTree(domain: domain, root: root, stagingParent: root + "/tmp", progress: progress,
                                     keep: { path in
                                         path.isEmpty || Self.isUnder(path, "Documents")
                                             || (Self.isUnder(path, "Library") && !Self.isUnder(path, "Library/Caches"))
                                     },
                                     replacing: { replaced.contains($0) })
        // The standard layout (empty Caches and tmp included) comes back.
        do {
            _ = try AppContainer.create(at: container.root, options: container.options)
        } catch {
            throw MobileBackupError(.ioFailed, path: root, "cannot recreate the container's layout: \(error)")
        }
        report.domains = [domain]
        return report
    }

    /// Restores `AppDomainGroup-<groupID>` into the group container at
    /// `directory`, replacing its contents (but not its container-manager
    /// metadata); Library/Caches and tmp come back empty.
    public func restoreGroup(_ groupID: String, into directory: URL,
                             progress: ((Int64) -> Void)? = nil) throws -> RestoreReport {
        let domain = Self.groupDomain(groupID)
        let root = directory.standardizedFileURL.path
        try Platform.makeDirectory(root)
        var report = try restoreTree(domain: domain, root: root, stagingParent: root, progress: progress,
                                     keep: { !Self.isUnder($0, "Library/Caches") && !Self.isUnder($0, "tmp") },
                                     replacing: { !$0.hasPrefix(".com.apple.") })
        for layout in ["Library", "Library/Caches"] { try Platform.makeDirectory(root + "/" + layout) }
        report.domains = [domain]
        return report
    }

    /// Whether `path` is `directory` or below it.
    static func isUnder(_ path: String, _ directory: String) -> Bool {
        path == directory || path.hasPrefix(directory + "/")
    }

    /// Extracts the kept rows of `domain` into a staging directory under
    /// `stagingParent`, then replaces the top-level entries of `root` that
    /// `replacing` names with the staged ones.
    private func restoreTree(domain: String, root: String, stagingParent: String, progress: ((Int64) -> Void)?,
                             keep: (String) -> Bool, replacing: (String) -> Bool) throws -> RestoreReport {
        guard reader.domains.contains(domain) else {
            throw MobileBackupError(.notFound, domain: domain, "the backup has no domain \(domain)")
        }
        var report = RestoreReport()
        report.skippedPaths = reader.records(inDomain: domain).filter { !keep($0.relativePath) }
            .map { "\(domain)/\($0.relativePath)" }
        try Platform.makeDirectory(stagingParent)
        let stagingName = ".sandbox-restore-\(UUID().uuidString)"
        let staging = stagingParent + "/" + stagingName
        defer { try? Platform.removeTree(staging) }
        var extracted = BackupVerificationReport(verifiedFiles: 0, verifiedBytes: 0, problems: [], uncheckedDigests: 0)
        if reader.records(inDomain: domain).contains(where: { keep($0.relativePath) }) {
            extracted = try reader.extract(domain: domain, to: URL(fileURLWithPath: staging), including: keep, progress: progress)
        } else {
            try Platform.makeDirectory(staging)
        }
        report.restoredFiles = extracted.verifiedFiles
        report.restoredBytes = extracted.verifiedBytes
        report.problems = extracted.problems
        report.uncheckedDigests = extracted.uncheckedDigests

        for name in try Platform.directoryEntries(root) where name != stagingName && replacing(name) {
            if name == "tmp" && stagingParent == root + "/tmp" {
                // The staging directory lives in tmp; tmp is emptied around it.
                for inner in try Platform.directoryEntries(root + "/tmp") where inner != stagingName {
                    try Platform.removeTree(root + "/tmp/" + inner)
                }
                continue
            }
            try Platform.removeTree(root + "/" + name)
        }
        for name in try Platform.directoryEntries(staging) where replacing(name) && name != "tmp" {
            try Platform.rename(staging + "/" + name, root + "/" + name)
        }
        return report
    }
}
