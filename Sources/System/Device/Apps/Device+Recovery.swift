import FileSystem
import Foundation
import Keychain

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
