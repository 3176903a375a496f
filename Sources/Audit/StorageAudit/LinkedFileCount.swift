/// A file with several hard links as one app's walk counted it, each time
/// it met it: what it added to its category, to take back once the apps'
/// walks are put together in order, wherever an earlier app, or an earlier
/// place in the same walk, counted it already. Walks of several apps at
/// once thereby count a file where one walk of them all, app after app,
/// would first meet it.
struct LinkedFileCount {
    var identity: StorageAuditor.FileIdentity
    var category: StorageCategory
    var allocatedBytes: UInt64
    var apparentBytes: UInt64
    var backedUp: Bool
    var purgeable: Bool
    var keptByUpdate: Bool

    /// What it added to its category's usage.
    var usage: StorageUsage {
        var usage = StorageUsage()
        usage.allocatedBytes = allocatedBytes
        usage.apparentBytes = apparentBytes
        usage.files = 1
        if backedUp { usage.backupBytes = apparentBytes }
        if purgeable { usage.purgeableBytes = allocatedBytes }
        if keptByUpdate { usage.keptByUpdateBytes = allocatedBytes }
        return usage
    }
}

/// One app's audit as its walk made it, every hard-linked file counted
/// each time it was met, before ``StorageAuditor/countLinksOnce(_:)``.
struct ScannedApp {
    var audit: AppStorageAudit
    /// The hard-linked files, in the order the walk met them.
    var linkedFiles: [LinkedFileCount]
}

extension StorageAuditor {
    /// Counts each of the app's hard-linked files only where this auditor
    /// meets it first: those it counted already (in an app audited before,
    /// or earlier in this one) are taken back out, in the walk's order.
    mutating func countLinksOnce(_ app: inout ScannedApp) {
        for file in app.linkedFiles where !seenLinks.insert(file.identity).inserted {
            app.audit.remove(file.usage, from: file.category)
        }
        app.linkedFiles = []
    }
}

extension AppStorageAudit {
    /// Takes `usage` out of `category` and the total.
    mutating func remove(_ usage: StorageUsage, from category: StorageCategory) {
        categories[category.ordinal].usage.subtract(usage)
        total.subtract(usage)
    }
}

extension StorageUsage {
    /// Takes out `other`, which was added before.
    mutating func subtract(_ other: StorageUsage) {
        allocatedBytes -= other.allocatedBytes
        apparentBytes -= other.apparentBytes
        files -= other.files
        directories -= other.directories
        backupBytes -= other.backupBytes
        purgeableBytes -= other.purgeableBytes
        keptByUpdateBytes -= other.keptByUpdateBytes
    }
}
