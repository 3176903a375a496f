import CloudProtocol

/// A device's audit: its apps, largest first, and their iCloud cost.
public struct DeviceStorageAudit: Sendable, Hashable, Codable {
    /// The device's name.
    public var device: String
    /// The apps, by allocated bytes, largest first (then by bundle id).
    public var apps: [AppStorageAudit]
    /// The shared containers of their app groups, by identifier.
    public var groups: [GroupStorageAudit]
    /// The iCloud backup: each app's footprint against the quota.
    public var iCloud: ICloudCost

    /// Builds the audit, sorting `apps` and pricing their backups against
    /// `quotaBytes` (iCloud's free 5 GB unless told otherwise).
    public init(device: String, apps: [AppStorageAudit], groups: [GroupStorageAudit] = [],
                quotaBytes: UInt64 = UInt64(CloudLimits.defaultQuotaBytes)) {
        self.device = device
        self.groups = groups
        self.apps = apps.sorted {
            ($0.total.allocatedBytes, $1.bundleID) > ($1.total.allocatedBytes, $0.bundleID)
        }
        iCloud = ICloudCost(apps: self.apps, groups: groups, quotaBytes: quotaBytes)
    }
}

/// What the apps' data costs in iCloud backup.
public struct ICloudCost: Sendable, Hashable, Codable {
    /// One app's footprint.
    public struct AppCost: Sendable, Hashable, Codable {
        public var bundleID: String
        /// Bytes of the app's data a backup stores: what turning the app's
        /// iCloud Backup toggle off would save.
        public var backupBytes: UInt64
        /// That footprint in thousandths of the quota (an integer, so the
        /// JSON is the same on every machine).
        public var quotaPermille: UInt64
    }

    /// The quota the footprints are measured against.
    public var quotaBytes: UInt64
    /// All apps' backups together, their groups' shared containers included.
    public var backupBytes: UInt64
    /// The part of ``backupBytes`` that is the groups' shared containers:
    /// a backup takes them whichever app's toggle is on.
    public var groupBackupBytes: UInt64
    /// Whether they fit in the quota.
    public var fitsInQuota: Bool
    /// Per app, largest backup first.
    public var apps: [AppCost]

    init(apps: [AppStorageAudit], groups: [GroupStorageAudit], quotaBytes: UInt64) {
        self.quotaBytes = quotaBytes
        let costs = apps.map { app in
            AppCost(bundleID: app.bundleID, backupBytes: app.total.backupBytes,
                    quotaPermille: quotaBytes == 0 ? 0 : app.total.backupBytes * 1000 / quotaBytes)
        }
        self.apps = costs.sorted { ($0.backupBytes, $1.bundleID) > ($1.backupBytes, $0.bundleID) }
        groupBackupBytes = groups.reduce(0) { $0 + $1.usage.backupBytes }
        backupBytes = costs.reduce(0) { $0 + $1.backupBytes } + groupBackupBytes
        fitsInQuota = backupBytes <= quotaBytes
    }
}
