import Container
import FileSystem
import Foundation
import Keychain
import MobileBackup

/// Backing a device up in iOS's format and restoring a backup onto a device.
extension Device {
    /// The directory holding backups: `$SANDBOX_HOME/backups`, else
    /// `~/.local/share/sandbox/backups` (``SandboxHome/backups``).
    public static func backupsDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        SandboxHome(environment: environment).backups
    }

    /// Backs the device up into `<directory>/<UDID>`, incrementally against
    /// the previous backup there:
    /// - `AppDomain-<bundle id>` per installed app: Documents and Library,
    ///   without Library/Caches, tmp, the bundle, the container's metadata and
    ///   any item carrying the do-not-back-up flag, as the container's
    ///   `ContainerEntryClassifier` decides (an item whose flag cannot be
    ///   read is listed in ``BackupSummary/skippedFiles``);
    /// - `AppDomainGroup-<group id>` per app-group container, by the group
    ///   rows of the same table: without its Library/Caches, tmp and
    ///   flagged items;
    /// - `KeychainDomain/keychain-backup.plist`: the keychain export (never
    ///   `ThisDeviceOnly` items), sealed with `password` or, without one, to
    ///   this device, so it comes back only here.
    ///
    /// `password` also encrypts the whole backup, with iOS's key-derivation
    /// cost unless `keyDerivation` says otherwise (tests use a cheap one).
    ///
    /// iCloud backup passes `keychainPassword` instead: the backup itself
    /// stays plain (the service's transport encrypts every chunk, and plain
    /// payloads deduplicate between devices), while the keychain export is
    /// sealed with it as in a password-protected backup, so it restores onto
    /// a new device that knows the account. `excludingApps` leaves apps out
    /// (iCloud's per-app switch).
    ///
    /// Every container is walked from its root held open, and every file is
    /// read beneath it without following links and only if it is still the
    /// file the walk saw (device, inode, kind): an app that swaps a file for
    /// a link, a hard link or a directory meanwhile gets that item left out
    /// and listed in ``BackupSummary/skippedFiles``, never an outside file
    /// into its backup. A file that grows or shrinks meanwhile is recorded
    /// as read.
    ///
    /// A running app is refused: iOS backs up apps that are suspended or not
    /// running, never one that is executing and may be writing its files;
    /// here nothing suspends a launched process for the backup, so the app
    /// must be terminated first.
    ///
    /// - Throws: ``DeviceError`` `appRunning` (before anything is written)
    ///   when an installed app is running; `MobileBackupError` when the
    ///   backup cannot be written.
    @discardableResult
    public func backUp(to directory: URL = Device.backupsDirectory(), password: String? = nil,
                       keyDerivation: BackupKeyDerivation = .iOS, keychainPassword: String? = nil,
                       excludingApps excluded: Set<String> = [],
                       progress: (@Sendable (BackupProgress) -> Void)? = nil) throws -> BackupSummary {
        let apps = try installedApps().filter { !excluded.contains($0.bundleID) }
        for app in apps where try isRunning(app.bundleID) {
            throw DeviceError(.appRunning, bundleID: app.bundleID,
                              "\(app.bundleID) is running; terminate it before you back up the device")
        }
        var sources: [BackupDomainSource] = []
        var groups: [String: URL] = [:]
        for app in apps {
            let container = try app.dataContainer()
            let root = try Self.heldContainer(app.dataContainerURL, bundleID: app.bundleID)
            sources.append(BackupDomainSource(domain: BackupRestorer.appDomain(app.bundleID), directory: root, filter: {
                Self.backupFilter(container.entryClassifier())
            }))
            for (group, url) in app.groupContainers { groups[group] = url }
        }
        for (group, url) in groups.sorted(by: { $0.key < $1.key }) {
            let root = try Self.heldContainer(url, bundleID: nil)
            sources.append(BackupDomainSource(domain: BackupRestorer.groupDomain(group), directory: root, filter: {
                Self.backupFilter(ContainerEntryClassifier.group())
            }))
        }
        let export: Data
        do { export = try keychain.exportBackup(password: password ?? keychainPassword) } catch {
            throw DeviceError.wrapping(error, path: layout.keychains.path, "export the keychain for a backup")
        }
        sources.append(BackupDomainSource(domain: BackupRestorer.keychainDomain, root: nil, extraFiles: [
            BackupExtraFile(relativePath: BackupRestorer.keychainFile, contents: export, protectionClass: .none, permissions: 0o600),
        ]))
        let applications = apps.map { app in
            BackupApplication(bundleIdentifier: app.bundleID, version: app.version,
                              path: "/private/var/containers/Bundle/Application/"
                                  + app.bundleContainer.pathComponents.suffix(2).joined(separator: "/"))
        }
        let writer = BackupWriter(directory: directory.appendingPathComponent(identity.udid, isDirectory: true),
                                  device: backupDeviceInfo, applications: applications,
                                  options: BackupOptions(password: password, keyDerivation: keyDerivation))
        return try writer.backUp(sources, progress: progress)
    }

    /// Restores the backup at `backup` (a `<UDID>` backup directory, ours or
    /// one made by iTunes or Finder) onto this device, the one it was made
    /// on or another:
    /// - each app in the backup that is installed here gets its data back
    ///   (a full restore: Documents and Library replaced, Caches and tmp
    ///   empty); apps that are not installed here are listed in
    ///   ``RestoreReport/appsNotInstalled`` and their data is left in the
    ///   backup (install them, then restore again);
    /// - each group domain goes into the group container of that ID, when an
    ///   installed app uses the group;
    /// - the keychain follows iOS's rules (see
    ///   `BackupRestorer.restoreKeychain(into:sameDevice:password:)`): a
    ///   backup without a password brings keychain items back only onto the
    ///   device it came from; `ThisDeviceOnly` items never move.
    ///
    /// Damaged payloads are listed in the report and not restored. Each
    /// container is written beneath its root held open (see
    /// `BackupRestorer.restoreApp(bundleID:into:progress:)`): no link in it
    /// leads a write outside, no row replaces a layout directory with a
    /// link, rows with unsafe paths are refused and listed, and modes lose
    /// setuid, setgid and sticky bits.
    ///
    /// A backup whose `Status.plist` says its snapshot is not finished (still
    /// uploading) is refused unless `force` is set.
    ///
    /// - Throws: `MobileBackupError` `wrongPassword` or `passwordRequired`
    ///   for an encrypted backup, `unfinishedBackup` for an unfinished
    ///   snapshot without `force`; ``DeviceError`` `appRunning` (before anything
    ///   is touched) when an app to restore is running, `io` when a container
    ///   cannot be written.
    public func restore(from backup: URL, password: String? = nil, force: Bool = false,
                        progress: ((Int64) -> Void)? = nil) throws -> DeviceRestoreReport {
        try restore(from: try BackupReader(directory: backup, password: password), password: password, force: force, progress: progress)
    }

    /// Restores an opened backup (see ``restore(from:password:force:progress:)-(URL,_,_,_)``);
    /// `password` also opens its keychain export.
    ///
    /// `keychainPassword` opens a keychain export sealed with a password in
    /// a plain backup (iCloud's, see
    /// ``backUp(to:password:keyDerivation:keychainPassword:excludingApps:progress:)``).
    public func restore(from reader: BackupReader, password: String? = nil, keychainPassword: String? = nil, force: Bool = false,
                        progress: ((Int64) -> Void)? = nil) throws -> DeviceRestoreReport {
        let restorer = BackupRestorer(reader, force: force)
        // Before anything is touched: an unfinished snapshot is refused unless forced.
        try restorer.checkSnapshotFinished()
        let apps = Dictionary(try installedApps().map { ($0.bundleID, $0) }, uniquingKeysWith: { first, _ in first })
        // iOS restores with no app running; one that runs would see its files replaced under it.
        for bundleID in restorer.bundleIDs where try apps[bundleID] != nil && isRunning(bundleID) {
            throw DeviceError(.appRunning, bundleID: bundleID, "\(bundleID) is running; terminate it before you restore its data")
        }
        var report = DeviceRestoreReport()
        for bundleID in restorer.bundleIDs {
            guard let app = apps[bundleID] else {
                report.appsNotInstalled.append(bundleID)
                continue
            }
            let root = try Self.heldContainer(app.dataContainerURL, bundleID: bundleID)
            report.data.merge(try restorer.restoreApp(bundleID: bundleID, into: root, layout: .container(.app), progress: progress))
        }
        var groupContainers: [String: URL] = [:]
        for app in apps.values { groupContainers.merge(app.groupContainers) { first, _ in first } }
        for group in restorer.groupIDs {
            guard let url = groupContainers[group] else {
                report.groupsNotPresent.append(group)
                continue
            }
            report.data.merge(try restorer.restoreGroup(group, into: try Self.heldContainer(url, bundleID: nil, creating: true),
                                                        layout: .container(.group),
                                                        progress: progress))
        }
        let sameDevice = restorer.reader.info.device.udid.caseInsensitiveCompare(identity.udid) == .orderedSame
        report.keychain = try restorer.restoreKeychain(into: keychain, sameDevice: sameDevice, password: password ?? keychainPassword,
                                                       sealedWithPassword: keychainPassword != nil)
        return report
    }

    /// A container's root, held open (a link there is refused): what the
    /// backup walks and the restore writes beneath.
    static func heldContainer(_ url: URL, bundleID: String?, creating: Bool = false) throws -> DirectoryHandle {
        let path = url.standardizedFileURL.path
        do {
            if creating { try FileSystemPaths.makeDirectories(atPath: path) }
            return try DirectoryHandle(openingAt: path, followLinks: false)
        } catch {
            throw DeviceError(error, bundleID: bundleID, path: path, "open the container")
        }
    }

    /// The device as a backup describes it.
    var backupDeviceInfo: BackupDeviceInfo {
        BackupDeviceInfo(udid: identity.udid, deviceName: identity.name, productType: identity.productType,
                         productVersion: identity.productVersion, buildVersion: "21A329",
                         serialNumber: "SB" + String(identity.udid.filter(\.isHexDigit).prefix(10)).uppercased(),
                         imei: "350000000000000")
    }

    /// The backup's filter for one walk of a container: the container's
    /// rules decide (``ContainerEntryClassifier``); an item whose flag
    /// cannot be read, or whose path is too long, is listed as skipped.
    static func backupFilter(_ classifier: ContainerEntryClassifier) -> BackupEntryFilter {
        var classifier = classifier
        return { entry, parent in
            switch classifier.classify(entry, in: parent).backup {
            case .included: return .include
            case .excluded(.pathTooLong):
                return .skip(.pathTooLong, message: "the path is longer than a container path may be")
            case .excluded: return .exclude
            case .unreadable(let error): return .skip(.flagUnreadable, message: error.description)
            }
        }
    }
}
