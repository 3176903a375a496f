import Container
import Device
import Dispatch
import Foundation

/// Auditing the apps installed on a device.
extension StorageAuditor {
    /// Audits every app installed on `device`, or only `bundleID`: each
    /// data container with its bundle (in the device's bundle container)
    /// and the count of keychain items in the app's access groups. Nothing
    /// on the device changes, and running apps are audited as they are.
    ///
    /// Apps are walked at once on as many threads as the machine has cores
    /// (at most one an app); the audit is the same, byte for byte, as one
    /// thread's: each app's figures and findings are its own walk's, and a
    /// file hard-linked from several places is counted where the apps, in
    /// bundle-identifier order, first meet it. `progress` hears of each app,
    /// in that order and one call at a time, before it is walked (on
    /// whichever thread walks it).
    ///
    /// - Throws: ``StorageAuditError`` `appNotInstalled` for a `bundleID`
    ///   the device does not have, `unreadable` for a container that cannot
    ///   be walked (the first such app in order).
    public mutating func audit(device: Device, bundleID: String? = nil,
                               progress: ((AuditProgress) -> Void)? = nil) throws -> DeviceStorageAudit {
        let installed = try device.installedApps()
        var apps = installed
        if let bundleID {
            apps = apps.filter { $0.bundleID == bundleID }
            guard !apps.isEmpty else {
                throw StorageAuditError(.appNotInstalled, path: device.root.path,
                                        "\(bundleID) is not installed on \(device.identity.name)")
            }
        }
        // The keychain and the containers are opened here, in order; only
        // the walks run on other threads.
        let work = apps.sorted(by: { $0.bundleID < $1.bundleID }).map { app in
            AppToScan(bundleID: app.bundleID, bundle: app.bundle, container: Result { try app.dataContainer() },
                      keychainItems: try? device.keychain.itemCount(for: app.entitlements.keychain),
                      groups: app.groupContainers.keys.sorted())
        }
        let options = options
        let queue = AppScanQueue(work.map(\.bundleID), progress: progress)
        let threads = min(work.count, max(1, ProcessInfo.processInfo.activeProcessorCount))
        let scanAll: @Sendable (Int) -> Void = { _ in
            while let index = queue.next() {
                let app = work[index]
                queue.finish(index, Result {
                    try StorageAuditor(options: options).scanApp(bundleID: app.bundleID, container: try app.container.get(),
                                                                 bundle: app.bundle, keychainItems: app.keychainItems)
                })
            }
        }
        if threads > 1 { DispatchQueue.concurrentPerform(iterations: threads, execute: scanAll) } else { scanAll(0) }

        var audits: [AppStorageAudit] = []
        for (app, result) in zip(work, queue.results) {
            var scanned = try result.get()
            countLinksOnce(&scanned)
            var appAudit = scanned.audit
            if app.keychainItems == nil { appAudit.notes.append("The keychain could not be read: its items were not counted.") }
            audits.append(appAudit)
        }
        // The groups of the audited apps, each once, with every installed
        // app entitled to it.
        var groups: [String: (container: URL, apps: [String])] = [:]
        for app in installed {
            for (group, container) in app.groupContainers { groups[group, default: (container, [])].apps.append(app.bundleID) }
        }
        let audited = Set(apps.flatMap(\.groupContainers.keys))
        let groupAudits = try groups.keys.sorted().filter(audited.contains).compactMap { group -> GroupStorageAudit? in
            guard let found = groups[group] else { return nil }
            return try Self.scanGroup(group, at: found.container, apps: found.apps.sorted())
        }
        return DeviceStorageAudit(device: device.identity.name, apps: audits, groups: groupAudits)
    }
}

/// One app of a device's audit, as the walking threads get it.
private struct AppToScan: Sendable {
    var bundleID: String
    var bundle: AppBundle
    var container: Result<AppContainer, any Error>
    var keychainItems: Int?
    /// Its app groups' identifiers, sorted.
    var groups: [String]
}

/// How far a device's audit has got, for a progress line.
public struct AuditProgress: Sendable, Hashable {
    /// The app about to be walked.
    public var bundleID: String
    /// Its place, from 0.
    public var index: Int
    /// The apps in all.
    public var count: Int
}
