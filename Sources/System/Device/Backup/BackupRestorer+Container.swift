import Container
import FileSystem
import MobileBackup

/// Restoring into an `AppContainer`: the format's restore, given the
/// container's root held open.
extension BackupRestorer {
    /// Restores `AppDomain-<bundleID>` into `container` (see the
    /// `DirectoryHandle` form): the container's root is opened once, never
    /// through a link, and everything is written beneath it.
    public func restoreApp(bundleID: String, into container: AppContainer,
                           progress: ((Int64) -> Void)? = nil) throws -> RestoreReport {
        let root = container.root.standardizedFileURL.path
        let handle: DirectoryHandle
        do {
            handle = try DirectoryHandle(openingAt: root, followLinks: false)
        } catch {
            throw MobileBackupError(.ioFailed, path: root, "cannot open the container").caused(by: error)
        }
        return try restoreApp(bundleID: bundleID, into: handle, layout: .container(.app), progress: progress)
    }
}

extension RestoreLayout {
    /// What a full restore does with a container of `layout`, from the
    /// rules table (``StorageRules``): the rows it brings back and the
    /// entries it replaces, and the directories it makes again.
    public static func container(_ layout: ContainerLayout) -> RestoreLayout {
        RestoreLayout(restores: { StorageRules.restoreBringsBack($0, in: layout) },
                      replaces: { StorageRules.restoreReplaces(topLevel: $0, in: layout) },
                      directories: ContainerDirectory.layout(of: layout).map(\.relativePath),
                      stagingDirectory: StorageRules.restoreStagingDirectory(in: layout)?.relativePath)
    }
}
