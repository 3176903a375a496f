import Container
import FileSystem
import Foundation

/// An app group's shared container: what it costs on disk, what a backup
/// takes of it and what a purge frees, read through the group's rules
/// table (`StorageRules.groupTable`) by the same classifier the backup and
/// the purge use.
public struct GroupStorageAudit: Sendable, Hashable, Codable {
    /// The group's identifier (`group.com.example.shared`).
    public var identifier: String
    /// The installed apps entitled to it, sorted.
    public var apps: [String]
    /// The whole container; a file with several links counts once.
    public var usage: StorageUsage

    public init(identifier: String, apps: [String], usage: StorageUsage) {
        self.identifier = identifier
        self.apps = apps
        self.usage = usage
    }
}

extension StorageAuditor {
    /// Walks the group container at `root` once, from its held root, and
    /// adds up each item by its row: the same figures the backup takes
    /// (apparent bytes of the files it includes) and the purge frees
    /// (allocated bytes below the purgeable rows, which themselves stay).
    static func scanGroup(_ identifier: String, at root: URL, apps: [String]) throws -> GroupStorageAudit {
        var usage = StorageUsage()
        var linked = Set<FileIdentity>()
        do {
            let handle = try DirectoryHandle(openingAt: root.standardizedFileURL.path, followLinks: false)
            usage.count(try handle.descriptor.status(), backedUp: false, purgeable: false, keptByUpdate: true)
            var classifier = ContainerEntryClassifier.group()
            try handle.descriptor.walkTree(repairedNames: .visit) { entry, parent throws(FileSystemError) in
                let item = classifier.classify(entry, in: parent)
                let status = entry.status
                if !status.isDirectory && status.linkCount > 1,
                   !linked.insert(FileIdentity(device: status.device, inode: status.inode)).inserted {
                    return .descend
                }
                // A purge empties a purgeable row's directory but keeps it.
                usage.count(status, backedUp: item.isBackedUp,
                            purgeable: item.rules.purgeableWhenDiskLow && !item.isStandardDirectory,
                            keptByUpdate: item.rules.keptAcrossUpdate)
                return .descend
            }
        } catch {
            throw StorageAuditError(.unreadable, path: root.path, "cannot walk the group container of \(identifier)").caused(by: error)
        }
        return GroupStorageAudit(identifier: identifier, apps: apps, usage: usage)
    }
}
