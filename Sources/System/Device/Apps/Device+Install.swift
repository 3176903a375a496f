import Container
import Foundation
import Keychain

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
