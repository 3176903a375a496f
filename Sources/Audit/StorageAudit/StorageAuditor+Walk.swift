import Container
import FileSystem
import Foundation
import SystemPackage

/// The walk: one pass over the container (and a bundle kept outside it),
/// deciding per directory what its entries inherit (category, rules, a
/// flagged ancestor, the manifest's names there), so an entry costs its
/// `lstat`, a flag read where a backup could take it, and no path unless a
/// finding needs one.
extension StorageAuditor {
    /// A directory the walk is in, and what its entries inherit from it.
    struct WalkDirectory {
        /// Container-relative (`""` for the root; `<Name>.app/…` in a bundle
        /// kept outside the container).
        var path: String
        var category: StorageCategory
        /// The rules row of its category (``StorageCategory/rules``).
        var rules: DirectoryRules
        /// It or a directory above it is left out of backups (its flag, or a
        /// name backups leave out), so nothing in it is asked about.
        var excludedFromBackup: Bool
        var isPreferences: Bool
        /// The manifest's entries in it (cache directories only).
        var recordedNames: [String: Int64]?
        /// Where its names start in the case tracker.
        var caseMark: Int

        /// The path of its entry `name`.
        func path(of name: String) -> String { path.isEmpty ? name : path + "/" + name }
    }

    /// Walks the directory at `url`: the container (`bundleName` nil, paths
    /// relative to its root) or a bundle kept outside it (every item in the
    /// bundle category, paths `<Name>.app/…`).
    func walk(_ url: URL, as bundleName: String?, scan: inout AppScan, container: AppContainer,
                       manifest: ManifestLoad) throws {
        let path = url.standardizedFileURL.path
        do {
            let handle = try DirectoryHandle(openingAt: path, followLinks: false)
            let rootStatus = try handle.descriptor.status()
            let rootPath = bundleName ?? ""
            let rootCategory: StorageCategory = bundleName == nil ? .home : .bundle
            // A backup takes the container's root; never a bundle.
            let rootBackedUp = rootCategory.rules.backedUp
            // The container's rules decide what a backup takes, as they
            // decide it for the backup itself.
            var classifier = bundleName == nil ? container.entryClassifier() : nil
            add(rootStatus, category: rootCategory, rules: rootCategory.rules, backedUp: rootBackedUp,
                isCategoryDirectory: rootPath == rootCategory.containerDirectory.relativePath, scan: &scan)
            var open = [WalkDirectory(path: rootPath, category: rootCategory, rules: rootCategory.rules,
                                      excludedFromBackup: false,  // a backup always takes the root
                                      isPreferences: false, recordedNames: nil, caseMark: scan.cases.mark)]
            try handle.descriptor.walkTree(repairedNames: .visit) { entry, parent throws(FileSystemError) in
                while open.count > entry.depth + 1, let done = open.popLast() { scan.cases.close(done.path, from: done.caseMark) }
                try visit(entry, in: open[open.count - 1], parent: parent, classifier: &classifier,
                          scan: &scan, manifest: manifest, open: &open)
                return .descend
            }
            while let done = open.popLast() { scan.cases.close(done.path, from: done.caseMark) }
        } catch {
            throw StorageAuditError(.unreadable, path: path, "cannot walk it").caused(by: error)
        }
    }

    /// Counts one entry, notes what the findings need of it, and opens its
    /// record when it is a directory (the walk enters it next).
    private func visit(_ entry: TreeEntry, in directory: WalkDirectory, parent: FileDescriptor,
                       classifier: inout ContainerEntryClassifier?, scan: inout AppScan, manifest: ManifestLoad,
                       open: inout [WalkDirectory]) throws(FileSystemError) {
        let inBundle = classifier == nil
        // Every entry of the container goes through the classifier, in
        // order (it keeps what the directories above it decided).
        let classified = classifier?.classify(entry, in: parent)
        let status = entry.status
        let name = entry.name
        // Category and rules change only in the first two levels.
        var category = directory.category, rules = directory.rules
        var isCategoryDirectory = false
        if entry.depth <= 1 {
            let path = directory.path(of: name)
            if !inBundle {
                category = StorageCategory(relativePath: path)
                rules = category.rules
            }
            isCategoryDirectory = path == category.containerDirectory.relativePath
        }
        var backedUp = false
        if entry.hasRepairedName {
            scan.repairedNames += 1
            if scan.firstRepairedName == nil { scan.firstRepairedName = directory.path(of: name) }
        }
        // A backup leaves out a name that is not UTF-8, with all it holds.
        if rules.backedUp && !directory.excludedFromBackup, let classified {
            backedUp = classified.isBackedUp
        }
        add(status, category: category, rules: rules, backedUp: backedUp, isCategoryDirectory: isCategoryDirectory, scan: &scan)
        scan.cases.visit(name: name, bytes: status.allocatedBytes)
        try inspect(entry, in: directory, parent: parent, category: category, backedUp: backedUp, scan: &scan)
        if status.isDirectory {
            let path = directory.path(of: name)
            open.append(WalkDirectory(path: path, category: category, rules: rules,
                                      excludedFromBackup: directory.excludedFromBackup || (rules.backedUp && !backedUp),
                                      isPreferences: path == AppScan.preferencesDirectory,
                                      recordedNames: category == .caches ? manifest.wait()?.names(in: path) : nil,
                                      caseMark: scan.cases.mark))
        }
    }

    /// Adds one item to its category's usage; a file with several links
    /// is also listed, to be counted once when the apps are put together
    /// (``StorageAuditor/countLinksOnce(_:)``).
    private func add(_ status: FileStatus, category: StorageCategory, rules: DirectoryRules, backedUp: Bool,
                     isCategoryDirectory: Bool, scan: inout AppScan) {
        // A purge empties the directory but keeps it.
        let purgeable = rules.purgeableWhenDiskLow && !isCategoryDirectory
        scan.usage[category.ordinal].count(status, backedUp: backedUp, purgeable: purgeable, keptByUpdate: rules.keptAcrossUpdate)
        if !status.isDirectory && status.linkCount > 1 {
            scan.linkedFiles.append(LinkedFileCount(identity: FileIdentity(device: status.device, inode: status.inode),
                                                    category: category, allocatedBytes: status.allocatedBytes,
                                                    apparentBytes: status.size, backedUp: backedUp, purgeable: purgeable,
                                                    keptByUpdate: rules.keptAcrossUpdate))
        }
    }

    /// Notes what the findings need of one item, making its path only for those.
    private func inspect(_ entry: TreeEntry, in directory: WalkDirectory, parent: FileDescriptor, category: StorageCategory,
                         backedUp: Bool, scan: inout AppScan) throws(FileSystemError) {
        let status = entry.status
        let name = entry.name
        if status.isRegularFile && AppScan.hasDatabaseSuffix(name), let database = AppScan.databasePath(of: directory.path(of: name)) {
            scan.databaseBytes[database, default: 0] += status.allocatedBytes
        }
        // Its name cannot reach it (the status came by its bytes): nothing to read.
        if entry.hasRepairedName { return }
        if directory.isPreferences {
            scan.preferenceNames.insert(name)
            if status.isRegularFile && name.hasSuffix(".plist") {
                let binary: Bool
                do { binary = try AppScan.startsAsBinaryPlist(name, in: parent, status: status) } catch {
                    if error.isNotFound { return }  // removed meanwhile
                    throw error.with(path: directory.path(of: name))
                }
                scan.preferenceFiles.append((name, status.allocatedBytes, binary))
            }
        }
        guard status.isRegularFile else { return }
        switch category {
        case .documents where status.size >= options.largeFileBytes:
            scan.largeDocuments.append((directory.path(of: name), status))
        case .caches:
            if directory.recordedNames?[name] == nil { scan.unknownCacheFiles.append((directory.path(of: name), status.allocatedBytes)) }
            scan.noteCacheExtension(of: name)
        case .applicationSupport where status.size >= options.largeFileBytes && backedUp:
            scan.largeBackedUpSupport.append((directory.path(of: name), status))
        case .bundle:
            let path = directory.path(of: name)
            let inBundle = path.split(separator: "/", maxSplits: 1).dropFirst().first.map(String.init) ?? path
            scan.bundleFiles[inBundle] = status.allocatedBytes
        default:
            break
        }
    }
}
