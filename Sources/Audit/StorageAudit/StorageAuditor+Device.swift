import Device

/// Auditing the apps installed on a device.
extension StorageAuditor {
    /// Audits every app installed on `device`, or only `bundleID`: each
    /// data container with its bundle (in the device's bundle container)
    /// and the count of keychain items in the app's access groups. Nothing
    /// on the device changes, and running apps are audited as they are.
    /// `progress` hears of each app before it is walked.
    ///
    /// - Throws: ``StorageAuditError`` `appNotInstalled` for a `bundleID`
    ///   the device does not have, `unreadable` for a container that cannot
    ///   be walked.
    public mutating func audit(device: Device, bundleID: String? = nil,
                               progress: ((AuditProgress) -> Void)? = nil) throws -> DeviceStorageAudit {
        var apps = try device.installedApps()
        if let bundleID {
            apps = apps.filter { $0.bundleID == bundleID }
            guard !apps.isEmpty else {
                throw StorageAuditError(.appNotInstalled, path: device.root.path,
                                        "\(bundleID) is not installed on \(device.identity.name)")
            }
        }
        var audits: [AppStorageAudit] = []
        for (index, app) in apps.sorted(by: { $0.bundleID < $1.bundleID }).enumerated() {
            progress?(AuditProgress(bundleID: app.bundleID, index: index, count: apps.count))
            let keychainItems = try? device.keychain.itemCount(for: app.entitlements.keychain)
            var appAudit = try audit(bundleID: app.bundleID, container: try app.dataContainer(), bundle: app.bundle,
                                  keychainItems: keychainItems)
            if keychainItems == nil { appAudit.notes.append("The keychain could not be read: its items were not counted.") }
            if !app.groupContainers.isEmpty {
                appAudit.notes.append("App-group containers (\(app.groupContainers.keys.sorted().joined(separator: ", "))) are not audited yet.")
            }
            audits.append(appAudit)
        }
        return DeviceStorageAudit(device: device.identity.name, apps: audits)
    }
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
