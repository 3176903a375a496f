import Container
import Foundation

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
