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
    private var seenLinks: Set<FileIdentity> = []

    public init(options: StorageAuditOptions = StorageAuditOptions()) {
        self.options = options
    }

    private struct FileIdentity: Hashable {
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
        var scan = AppScan()
        var notes: [String] = []
        try walk(container.root, as: nil, scan: &scan, container: container)
        if let bundle, !Self.isInside(bundle.url, container.root) {
            try walk(bundle.url, as: bundle.url.lastPathComponent, scan: &scan, container: container)
        }
        scan.cases.finish()

        var findings: [StorageFinding] = []
        let manifest: [CacheManifest.RecordedFile]?
        do {
            manifest = try CacheManifest.recordedFiles(in: container)
        } catch {
            manifest = nil
            notes.append("The cache manifest could not be read (\(error)); A1 used media types only and A2 was skipped.")
        }
        let manifestUnreadable = manifest == nil && scan.databaseBytes[CacheManifest.relativePath] != nil
        findings += downloadableDocuments(scan, manifest: manifest)
        if !manifestUnreadable { findings += unknownCacheFiles(scan, manifest: manifest) }
        findings += largeBackedUpSupport(scan)
        findings += preferencesWrittenDirectly(scan)
        findings += caseCollisions(scan)
        if let bundle {
            findings += try writtenIntoBundle(bundle, scan: scan, notes: &notes)
        } else {
            notes.append("The app has no bundle to check: A4 (data written into the bundle) was skipped.")
        }

        var total = StorageUsage()
        let categories = StorageCategory.allCases.map { category in
            let usage = scan.usage[category] ?? StorageUsage()
            total.add(usage)
            return CategoryUsage(category: category, usage: usage)
        }
        var summary: CacheManifestSummary?
        if let bytes = scan.databaseBytes[CacheManifest.relativePath] {
            summary = CacheManifestSummary(path: CacheManifest.relativePath, bytes: bytes, entries: manifest?.count ?? 0)
        }
        let stores = scan.databaseBytes.filter { $0.key != CacheManifest.relativePath }
            .map { StoreFile(path: $0.key, bytes: $0.value) }.sorted { $0.path < $1.path }
        findings.sort { ($0.rule.rawValue, $0.path) < ($1.rule.rawValue, $1.path) }
        return AppStorageAudit(bundleID: bundleID, categories: categories, total: total, keychainItems: keychainItems,
                               cacheManifest: summary, stores: stores, findings: findings, notes: notes)
    }

    // MARK: The walk

    /// Walks the directory at `url`: the container (`bundleName` nil, paths
    /// relative to its root) or a bundle kept outside it (every item in the
    /// bundle category, paths `<Name>.app/…`).
    private mutating func walk(_ url: URL, as bundleName: String?, scan: inout AppScan,
                               container: AppContainer) throws {
        let path = url.standardizedFileURL.path
        do {
            let handle = try DirectoryHandle(openingAt: path, followLinks: false)
            let rootStatus = try handle.descriptor.status()
            count(path: bundleName ?? "", name: bundleName ?? "", status: rootStatus, parentPath: nil,
                  category: bundleName == nil ? .home : .bundle, scan: &scan, container: container)
            try handle.descriptor.walkTree { entry, parent throws(FileSystemError) in
                var entry = entry
                let parentPath = String(entry.path.dropLast(entry.name.count).dropLast())
                if let bundleName { entry.path = bundleName + "/" + entry.path }
                let category = bundleName == nil ? StorageCategory(relativePath: entry.path) : .bundle
                let backedUp = count(path: entry.path, name: entry.name, status: entry.status, parentPath: bundleName.map { parentPath.isEmpty ? $0 : $0 + "/" + parentPath } ?? parentPath,
                                     category: category, scan: &scan, container: container)
                try inspect(entry, parent: parent, category: category, backedUp: backedUp, scan: &scan)
                return .descend
            }
        } catch {
            throw StorageAuditError(.unreadable, path: path, "cannot walk it: \(error)")
        }
    }

    /// Adds one item to its category's usage and says whether a backup
    /// takes it.
    @discardableResult
    private mutating func count(path: String, name: String, status: FileStatus, parentPath: String?, category: StorageCategory,
                                scan: inout AppScan, container: AppContainer) -> Bool {
        if let parentPath { scan.cases.visit(directory: parentPath, name: name, bytes: status.allocatedBytes) }
        let rules = category.rules
        if let excluded = scan.excludedFromBackup, !path.hasPrefix(excluded + "/") { scan.excludedFromBackup = nil }
        // A walk that skips a flagged directory never asks about what it
        // holds (`backupIncludes`), so neither does the audit.
        var backedUp = false
        if rules.backedUp && scan.excludedFromBackup == nil {
            backedUp = container.backupIncludes(path, isDirectory: status.isDirectory)
            if !backedUp && status.isDirectory { scan.excludedFromBackup = path }
        }
        if !status.isDirectory && status.linkCount > 1 {
            guard seenLinks.insert(FileIdentity(device: status.device, inode: status.inode)).inserted else { return backedUp }
        }
        var usage = scan.usage[category] ?? StorageUsage()
        usage.allocatedBytes += status.allocatedBytes
        usage.apparentBytes += status.size
        if status.isDirectory { usage.directories += 1 } else { usage.files += 1 }
        if backedUp && !status.isDirectory { usage.backupBytes += status.size }
        if rules.purgeableWhenDiskLow && path != category.containerDirectory.relativePath {
            usage.purgeableBytes += status.allocatedBytes
        }
        if rules.keptAcrossUpdate { usage.keptByUpdateBytes += status.allocatedBytes }
        scan.usage[category] = usage
        return backedUp
    }

    /// Notes what the findings need of one item.
    private func inspect(_ entry: TreeEntry, parent: FileDescriptor, category: StorageCategory, backedUp: Bool,
                         scan: inout AppScan) throws(FileSystemError) {
        let status = entry.status
        if let database = AppScan.databasePath(of: entry.path), status.isRegularFile {
            scan.databaseBytes[database, default: 0] += status.allocatedBytes
        }
        let parentPath = String(entry.path.dropLast(entry.name.count).dropLast())
        if parentPath == AppScan.preferencesDirectory {
            scan.preferenceNames.insert(entry.name)
            if status.isRegularFile && entry.name.hasSuffix(".plist") {
                let binary: Bool
                do { binary = try AppScan.startsAsBinaryPlist(entry.name, in: parent, status: status) } catch {
                    if error.isNotFound { return }  // removed meanwhile
                    throw error.with(path: entry.path)
                }
                scan.preferenceFiles.append((entry.name, status.allocatedBytes, binary))
            }
        }
        guard status.isRegularFile else { return }
        switch category {
        case .documents where status.size >= options.largeFileBytes:
            scan.largeDocuments.append((entry.path, status))
        case .caches:
            scan.cacheFiles.append((entry.path, status.allocatedBytes))
            if let ext = AppScan.pathExtension(entry.name) { scan.cacheExtensions.insert(ext) }
        case .applicationSupport where status.size >= options.largeFileBytes && backedUp:
            scan.largeBackedUpSupport.append((entry.path, status))
        case .bundle:
            let inBundle = entry.path.split(separator: "/", maxSplits: 1).dropFirst().first.map(String.init) ?? entry.path
            scan.bundleFiles[inBundle] = status.allocatedBytes
        default:
            break
        }
    }

    private static func isInside(_ url: URL, _ root: URL) -> Bool {
        url.standardizedFileURL.path.hasPrefix(root.standardizedFileURL.path + "/")
    }
}
