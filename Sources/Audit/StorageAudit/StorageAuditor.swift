import CacheManifest
import Container
import FileSystem
import SystemPackage
import Foundation

/// Tunables of an audit.
public struct StorageAuditOptions: Sendable, Hashable {
    /// The size (apparent bytes) from which a file counts as large for
    /// rules A1 and A3: 1 MB (2^20 bytes) by default.
    public var largeFileBytes: UInt64

    public init(largeFileBytes: UInt64 = 1 << 20) {
        self.largeFileBytes = largeFileBytes
    }
}

/// Measures apps' storage and checks it against the guidelines.
///
/// Every byte is measured by FileSystem's descriptor walk (`walkTree`): no
/// link is followed, sizes are `lstat`'s, and a file with several hard
/// links is counted once per auditor (by device and inode), where the walk
/// first meets it, as `du` counts it once per run. Use one auditor for all
/// the apps of one audit.
///
/// ```swift
/// var auditor = StorageAuditor()
/// let audit = try auditor.audit(bundleID: "com.example.notes", container: container, bundle: bundle)
/// print(audit.total.allocatedBytes, audit.findings.map(\.rule))
/// ```
public struct StorageAuditor {
    public var options: StorageAuditOptions
    /// Files with more than one link already counted.
    var seenLinks: Set<FileIdentity> = []

    public init(options: StorageAuditOptions = StorageAuditOptions()) {
        self.options = options
    }

    struct FileIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// Audits one app: its data container and its bundle (inside the
    /// container as `<Name>.app`, or elsewhere as modern iOS keeps it), the
    /// cache manifest and stores it holds, and `keychainItems` when known.
    ///
    /// - Throws: ``StorageAuditError`` `unreadable` when the container or
    ///   bundle cannot be walked.
    public mutating func audit(bundleID: String, container: AppContainer, bundle: AppBundle?,
                               keychainItems: Int? = nil) throws -> AppStorageAudit {
        var scanned = try scanApp(bundleID: bundleID, container: container, bundle: bundle, keychainItems: keychainItems)
        countLinksOnce(&scanned)
        return scanned.audit
    }

    /// ``audit(bundleID:container:bundle:keychainItems:)`` with each
    /// hard-linked file counted every time the walk meets it, and listed
    /// for ``countLinksOnce(_:)``: it changes nothing in the auditor, so
    /// several apps can be walked at once.
    func scanApp(bundleID: String, container: AppContainer, bundle: AppBundle?,
                 keychainItems: Int?) throws -> ScannedApp {
        var scan = AppScan()
        var notes: [String] = []
        // The manifest is read on a second thread while the walk goes
        // through Documents and Application Support; the walk waits for it
        // at the first cache directory, to check cache files as it meets them.
        let load = ManifestLoad(container)
        try walk(container.root, as: nil, scan: &scan, container: container, manifest: load)
        if let bundle, !Self.isInside(bundle.url, container.root) {
            try walk(bundle.url, as: bundle.url.lastPathComponent, scan: &scan, container: container, manifest: load)
        }
        let manifest = load.wait()
        if let manifestError = load.error {
            notes.append("The cache manifest could not be read (\(manifestError)); A1 used media types only and A2 was skipped.")
        }

        var findings: [StorageFinding] = []
        let manifestUnreadable = manifest == nil && scan.databaseBytes[CacheManifest.relativePath] != nil
        findings += downloadableDocuments(scan, manifest: manifest)
        if !manifestUnreadable { findings += unknownCacheFiles(scan, hasManifest: manifest != nil) }
        findings += largeBackedUpSupport(scan)
        findings += preferencesWrittenDirectly(scan)
        findings += caseCollisions(scan)
        if let bundle {
            findings += try writtenIntoBundle(bundle, scan: scan, notes: &notes)
        } else {
            notes.append("The app has no bundle to check: A4 (data written into the bundle) was skipped.")
        }
        if let first = scan.firstRepairedName {
            notes.append("\(scan.repairedNames) item\(scan.repairedNames == 1 ? " has a name" : "s have names") that \(scan.repairedNames == 1 ? "is" : "are") not "
                         + "valid UTF-8, such as \(first) (shown with U+FFFD): counted on disk, but a backup leaves them out and iOS makes no such names.")
        }

        var total = StorageUsage()
        let categories = StorageCategory.allCases.map { category in
            let usage = scan.usage[category.ordinal]
            total.add(usage)
            return CategoryUsage(category: category, usage: usage)
        }
        var summary: CacheManifestSummary?
        if let bytes = scan.databaseBytes[CacheManifest.relativePath] {
            summary = CacheManifestSummary(path: CacheManifest.relativePath, bytes: bytes, entries: manifest?.count ?? 0)
        }
        let stores = scan.databaseBytes.filter { $0.key != CacheManifest.relativePath }
            .map { StoreFile(path: $0.key, bytes: $0.value) }.sorted { $0.path < $1.path }
        findings = FindingGroups.grouped(findings)
        findings.sort { ($0.rule.rawValue, $0.path) < ($1.rule.rawValue, $1.path) }
        let audit = AppStorageAudit(bundleID: bundleID, categories: categories, total: total, keychainItems: keychainItems,
                                    cacheManifest: summary, stores: stores, findings: findings, notes: notes)
        return ScannedApp(audit: audit, linkedFiles: scan.linkedFiles)
    }

    private static func isInside(_ url: URL, _ root: URL) -> Bool {
        url.standardizedFileURL.path.hasPrefix(root.standardizedFileURL.path + "/")
    }
}
