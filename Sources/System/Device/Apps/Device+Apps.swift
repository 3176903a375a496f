import Container
import FileSystem
import Foundation
import Keychain

extension Device {
    /// The installed apps, by bundle identifier.
    public func installedApps() throws -> [InstalledApp] {
        let registry = try readRegistry()
        return try registry.apps.keys.sorted().compactMap { id in
            guard let record = registry.apps[id] else { return nil }
            return try installedApp(record, registry: registry)
        }
    }

    /// The bundle identifiers of the installed apps, sorted (no bundle is opened).
    public func installedBundleIDs() throws -> [String] {
        try readRegistry().apps.keys.sorted()
    }

    /// One installed app.
    ///
    /// - Throws: ``DeviceErrorCode/notInstalled``.
    public func app(_ bundleID: String) throws -> InstalledApp {
        let registry = try readRegistry()
        guard let record = registry.apps[bundleID] else {
            throw DeviceError(.notInstalled, bundleID: bundleID, "\(bundleID) is not installed")
        }
        return try installedApp(record, registry: registry)
    }

    /// The path of one of an app's containers (`simctl get_app_container`).
    ///
    /// - Throws: ``DeviceErrorCode/notInstalled``; ``DeviceErrorCode/noSuchContainer``
    ///   for `groups` or a group the app is not entitled to.
    public func containerURL(_ bundleID: String, _ kind: ContainerKind) throws -> URL {
        let registry = try readRegistry()
        guard let record = registry.apps[bundleID] else {
            throw DeviceError(.notInstalled, bundleID: bundleID, "\(bundleID) is not installed")
        }
        let data = layout.dataContainer(record.dataUUID)
        switch kind {
        case .app: return layout.bundleContainer(record.bundleUUID).appendingPathComponent(record.bundleName, isDirectory: true)
        case .data: return data
        case .documents: return data.appendingPathComponent(ContainerDirectory.documents.relativePath, isDirectory: true)
        case .caches: return data.appendingPathComponent(ContainerDirectory.caches.relativePath, isDirectory: true)
        case .tmp: return data.appendingPathComponent(ContainerDirectory.tmp.relativePath, isDirectory: true)
        case .groups:
            guard let group = record.entitlements.applicationGroups.first, let uuid = registry.groups[group] else {
                throw DeviceError(.noSuchContainer, bundleID: bundleID, "\(bundleID) has no app group")
            }
            return layout.groupContainer(uuid)
        case .group(let group):
            guard record.entitlements.applicationGroups.contains(group), let uuid = registry.groups[group] else {
                throw DeviceError(.noSuchContainer, bundleID: bundleID, "\(bundleID) is not in app group \(group)")
            }
            return layout.groupContainer(uuid)
        }
    }

    func installedApp(_ record: AppRecord, registry: AppRegistry) throws -> InstalledApp {
        let bundleURL = layout.bundleContainer(record.bundleUUID).appendingPathComponent(record.bundleName, isDirectory: true)
        let bundle: AppBundle
        do { bundle = try AppBundle(at: bundleURL) } catch {
            throw DeviceError(.corrupt, bundleID: record.bundleID, path: bundleURL.path, "the installed bundle is unreadable").caused(by: error)
        }
        var groups: [String: URL] = [:]
        for group in record.entitlements.applicationGroups {
            if let uuid = registry.groups[group] { groups[group] = layout.groupContainer(uuid) }
        }
        return InstalledApp(bundleID: record.bundleID, version: record.version, shortVersion: record.shortVersion, bundle: bundle,
                            bundleContainer: bundleURL, dataContainerURL: layout.dataContainer(record.dataUUID),
                            groupContainers: groups, entitlements: record.entitlements, installed: record.installed,
                            systemRoot: systemRoot)
    }
}

extension Device {
    /// Installs the app bundle at `source` (a `.app` directory, copied).
    ///
    /// The bundle must have an `Info.plist` with a valid
    /// `CFBundleIdentifier`, `CFBundleVersion` and `CFBundleExecutable`, and
    /// the executable. An unsealed bundle is sealed in its new container; a
    /// bundle that does not match its seal is refused. The app gets a new
    /// bundle container, a data container with the standard layout, and a
    /// container for each app group it is entitled to that has none.
    ///
    /// - Throws: ``DeviceError`` `invalidBundle`, `sealMismatch`,
    ///   `alreadyInstalled` (use ``update(bundleAt:)``).
    @discardableResult
    public func install(bundleAt source: URL) throws -> InstalledApp {
        try withRegistry(forBundleAt: source) { bundle, identifier, registry in
            guard registry.apps[identifier] == nil else {
                throw DeviceError(.alreadyInstalled, bundleID: identifier, "\(identifier) is already installed; update it instead")
            }
            let record = try stage(source, validated: bundle)
            try stageGroups(record, in: &registry)
            registry.apps[identifier] = record
            // The commit point: one rename of the registry.
            try RecordFile.write(registry, to: layout.registry)
            return try installedApp(record, registry: registry)
        }
    }

    /// Validates the bundle at `source` (before taking the lock: it reads
    /// the whole bundle), then runs `body` under the device lock with the
    /// bundle, its identifier and the registry as it stands.
    private func withRegistry(forBundleAt source: URL,
                              _ body: (AppBundle, String, inout AppRegistry) throws -> InstalledApp) throws -> InstalledApp {
        let bundle = try BundleValidation.check(source)
        return try withDeviceLock {
            var registry = try readRegistry()
            return try body(bundle, bundle.info.identifier, &registry)
        }
    }

    /// Updates an installed app to the bundle at `source`, whose
    /// `CFBundleIdentifier` names the app.
    ///
    /// The new version gets new bundle and data containers. The user's data
    /// moves over (see ``UpdatePolicy``): Documents, Library except Caches,
    /// and anything else at the container's root; Library/Caches and tmp
    /// are left behind and deleted with the old containers. The keychain is
    /// not touched. A crash at any moment leaves the old version with its
    /// data, or the new one with the data moved.
    ///
    /// - Throws: ``DeviceError`` `notInstalled`, `appRunning`, and the
    ///   bundle errors of ``install(bundleAt:)``.
    @discardableResult
    public func update(bundleAt source: URL) throws -> InstalledApp {
        try withRegistry(forBundleAt: source) { bundle, identifier, registry in
            guard let old = registry.apps[identifier] else {
                throw DeviceError(.notInstalled, bundleID: identifier, "\(identifier) is not installed")
            }
            try refuseIfRunning(identifier, "update")
            var new = try stage(source, validated: bundle)
            new.installed = old.installed
            try stageGroups(new, in: &registry)
            registry.apps[identifier] = new
            for unused in registry.unusedGroups() { registry.groups[unused] = nil }
            let journal = DeviceJournal(operation: .update, bundleID: identifier, old: old, new: new, registry: registry)
            // The commit point: from here recovery finishes the update.
            try RecordFile.write(journal, to: layout.journal)
            try finish(journal)
            return try installedApp(new, registry: registry)
        }
    }

    /// Uninstalls an app: removes its bundle and data containers, the
    /// containers of app groups no remaining app uses, and applies the
    /// keychain policy (``KeychainUninstallPolicy/retain`` keeps its items,
    /// as iOS does; ``KeychainUninstallPolicy/delete`` deletes the items of
    /// groups no remaining app is entitled to).
    ///
    /// - Throws: ``DeviceError`` `notInstalled`, `appRunning`.
    public func uninstall(_ bundleID: String, keychainPolicy: KeychainUninstallPolicy = .retain) throws {
        try withDeviceLock {
            var registry = try readRegistry()
            guard let old = registry.apps[bundleID] else {
                throw DeviceError(.notInstalled, bundleID: bundleID, "\(bundleID) is not installed")
            }
            try refuseIfRunning(bundleID, "uninstall")
            registry.apps[bundleID] = nil
            for unused in registry.unusedGroups() { registry.groups[unused] = nil }
            let journal = DeviceJournal(operation: .uninstall, bundleID: bundleID, old: old, new: nil, registry: registry,
                                        keychainPolicy: keychainPolicy)
            try RecordFile.write(journal, to: layout.journal)
            try finish(journal)
        }
    }

    private func refuseIfRunning(_ bundleID: String, _ action: String) throws {
        guard try !isRunning(bundleID) else {
            throw DeviceError(.appRunning, bundleID: bundleID, "\(bundleID) is running; terminate it before you \(action) it")
        }
    }
}

/// Crash recovery. Every change to the installed apps has one commit point:
///
/// - **install** stages the new containers, then replaces
///   `applications.plist` (one `rename`);
/// - **update** and **uninstall** stage what they need, then write
///   `journal.plist` (one `rename`); the steps after it (moving the data,
///   writing the registry, deleting the old containers, the keychain
///   policy) are idempotent and are redone until the journal is removed.
///
/// So recovery rolls a journal forward, then deletes every container the
/// registry does not name: debris of an operation killed before its commit.
extension Device {
    /// Finishes a committed operation and removes the debris of an
    /// uncommitted one. ``open(at:)`` calls it when there is work to do.
    public func recover() throws {
        try withDeviceLock {
            if let journal = try RecordFile.read(DeviceJournal.self, from: layout.journal) {
                try finish(journal)
            }
            try sweep(try readRegistry())
        }
    }

    /// Whether anything lies around that the registry does not name.
    func hasDebris() -> Bool {
        guard let registry = try? readRegistry() else { return true }
        return !orphans(registry).isEmpty || leftoverTemporaryFiles().count > 0
    }

    /// Applies a committed journal; safe to run any number of times.
    func finish(_ journal: DeviceJournal) throws {
        switch journal.operation {
        case .update:
            guard let new = journal.new else {
                throw DeviceError(.corrupt, bundleID: journal.bundleID, path: layout.journal.path, "an update journal without the new app")
            }
            try moveData(from: layout.dataContainer(journal.old.dataUUID), to: layout.dataContainer(new.dataUUID),
                         bundleID: journal.bundleID)
            try RecordFile.write(journal.registry, to: layout.registry)
            keychain.appUpdated(journal.old.entitlements.keychain)
        case .uninstall:
            try RecordFile.write(journal.registry, to: layout.registry)
            if journal.keychainPolicy == .delete {
                try applyDeletePolicy(removed: journal.old, remaining: Array(journal.registry.apps.values))
            }
            try? FileSystemPaths.removeFile(atPath: layout.runRecord(journal.bundleID).path)
        }
        try remove(layout.bundleContainer(journal.old.bundleUUID), bundleID: journal.bundleID)
        try remove(layout.dataContainer(journal.old.dataUUID), bundleID: journal.bundleID)
        try sweep(journal.registry)
        do { try FileSystemPaths.removeFile(atPath: layout.journal.path) } catch {
            throw DeviceError(error, path: layout.journal.path, "remove the journal")
        }
    }

    private func applyDeletePolicy(removed: AppRecord, remaining: [AppRecord]) throws {
        let configuration = Keychain.Configuration(uninstallPolicy: .delete)
        do {
            let deleting = try Keychain(storeDirectory: layout.keychains, deviceSecret: deviceSecret, configuration: configuration)
            try deleting.appUninstalled(removed.entitlements.keychain, remainingApps: remaining.map(\.entitlements.keychain))
        } catch {
            throw DeviceError.wrapping(error, bundleID: removed.bundleID, path: layout.keychains.path,
                                       "apply the keychain's uninstall policy")
        }
    }

    /// Deletes containers the registry does not name and temporary files
    /// of interrupted record writes.
    func sweep(_ registry: AppRegistry) throws {
        for url in orphans(registry) { try remove(url, bundleID: nil) }
        for url in leftoverTemporaryFiles() { _ = try? FileSystemPaths.removeTree(atPath: url.path) }
    }

    private func orphans(_ registry: AppRegistry) -> [URL] {
        let bundles = Set(registry.apps.values.map(\.bundleUUID))
        let data = Set(registry.apps.values.map(\.dataUUID))
        let groups = Set(registry.groups.values)
        func unnamed(_ directory: URL, _ keep: Set<String>) -> [URL] {
            ((try? FileSystemPaths.entries(atPath: directory.path)) ?? []).filter { !keep.contains($0) }
                .map { directory.appendingPathComponent($0, isDirectory: true) }
        }
        return unnamed(layout.bundleApplications, bundles) + unnamed(layout.dataApplications, data)
            + unnamed(layout.appGroups, groups)
    }

    private func leftoverTemporaryFiles() -> [URL] {
        ((try? FileSystemPaths.entries(atPath: root.path)) ?? []).filter { $0.hasPrefix(".") && $0.hasSuffix(".tmp") }
            .map { root.appendingPathComponent($0) }
    }

    /// Removes the tree at `url`, never following a link; a missing one
    /// (its parent too) is fine.
    func remove(_ url: URL, bundleID: String?) throws {
        do { _ = try FileSystemPaths.removeTree(atPath: url.path) } catch {
            throw DeviceError(error, bundleID: bundleID, path: url.path, "remove \(url.lastPathComponent)")
        }
    }
}

/// Building an app's new containers before the operation commits. Nothing
/// here is visible until the registry or journal names it; a crash leaves
/// unnamed directories that recovery deletes.
extension Device {
    /// Copies the bundle into a new bundle container, seals it if it has no
    /// seal (refusing it if the seal does not match), and makes a new data
    /// container; returns the app's registry record.
    func stage(_ source: URL, validated bundle: AppBundle) throws -> AppRecord {
        let identifier = bundle.info.identifier
        let bundleUUID = UUID().uuidString
        let dataUUID = UUID().uuidString
        let container = layout.bundleContainer(bundleUUID)
        let copy = container.appendingPathComponent(source.lastPathComponent, isDirectory: true)
        do {
            try FileSystemPaths.makeDirectories(atPath: container.path)
        } catch {
            throw DeviceError(error, bundleID: identifier, path: container.path, "create the bundle container")
        }
        do {
            try BundleCopy.copy(from: source.path, to: copy.path)
        } catch {
            try? remove(container, bundleID: identifier)
            let code: DeviceError.Code = error.isNoSpace ? .diskFull : .io
            throw DeviceError(code, bundleID: identifier, path: source.path, "cannot copy the bundle").caused(by: error)
        }
        let installed: AppBundle
        let entitlements: AppEntitlements
        do {
            installed = try AppBundle(at: copy)
            // The copy is checked, not the source, so what was verified is
            // what is installed.
            switch try installed.verifySeal() {
            case .valid: break
            case .unsealed: try installed.seal()
            case .modified(let paths):
                let shown = paths.prefix(5).joined(separator: ", ") + (paths.count > 5 ? ", …" : "")
                throw DeviceError(.sealMismatch, bundleID: identifier, path: source.path,
                                  "the bundle does not match its seal (\(paths.count) changed: \(shown))")
            }
            entitlements = try AppEntitlements.read(from: installed)
            try ContainerMetadata.write(in: container, identifier: identifier, uuid: bundleUUID, contentClass: .bundle)
            try makeDataContainer(dataUUID, identifier: identifier, bundleURL: copy)
        } catch {
            try? remove(container, bundleID: identifier)
            try? remove(layout.dataContainer(dataUUID), bundleID: identifier)
            throw DeviceError.wrapping(error, bundleID: identifier, path: source.path, "install the bundle")
        }
        return AppRecord(bundleID: identifier, version: installed.info.version, shortVersion: installed.info.shortVersion,
                         bundleName: copy.lastPathComponent, bundleUUID: bundleUUID, dataUUID: dataUUID,
                         // Whole seconds: the registry's XML dates keep no more.
                         entitlements: entitlements, installed: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
    }

    private func makeDataContainer(_ uuid: String, identifier: String, bundleURL: URL) throws {
        let url = layout.dataContainer(uuid)
        _ = try AppContainer.create(at: url, bundleURL: bundleURL)
        try ContainerMetadata.write(in: url, identifier: identifier, uuid: uuid, contentClass: .data)
    }

    /// Adds a container for each of the app's groups that has none yet.
    func stageGroups(_ record: AppRecord, in registry: inout AppRegistry) throws {
        for group in record.entitlements.applicationGroups where registry.groups[group] == nil {
            let uuid = UUID().uuidString
            let url = layout.groupContainer(uuid)
            do {
                for directory in ContainerDirectory.layout(of: .group) {
                    try FileSystemPaths.makeDirectories(atPath: url.appendingPathComponent(directory.relativePath).path)
                }
            } catch {
                throw DeviceError(error, bundleID: record.bundleID, path: url.path, "create the app group container")
            }
            try ContainerMetadata.write(in: url, identifier: group, uuid: uuid, contentClass: .appGroup)
            registry.groups[group] = uuid
        }
    }
}
