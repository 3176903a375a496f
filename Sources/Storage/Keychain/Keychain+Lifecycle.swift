extension Keychain {
    /// Records that `app` was updated to a new version. It does nothing to
    /// the keychain, on purpose: on iOS an update never touches keychain
    /// items, so the new version finds every item the old one left. The call
    /// exists so the device's lifecycle code has one place to say so.
    public func appUpdated(_ app: KeychainEntitlements) {}

    /// Applies the ``Configuration/uninstallPolicy`` after `app` was
    /// uninstalled, and returns how many items were deleted.
    ///
    /// - ``KeychainUninstallPolicy/retain``: nothing is deleted (iOS's
    ///   observed behaviour); a reinstalled app finds its items again.
    /// - ``KeychainUninstallPolicy/delete``: the items in `app`'s groups that
    ///   none of `remainingApps` is entitled to are deleted, whatever their
    ///   lock class; shared groups keep their items while any app has them.
    @discardableResult
    public func appUninstalled(_ app: KeychainEntitlements, remainingApps: [KeychainEntitlements]) throws -> Int {
        guard configuration.uninstallPolicy == .delete else { return 0 }
        let stillUsed = Set(remainingApps.flatMap(\.accessGroups))
        let orphaned = app.accessGroups.filter { !stillUsed.contains($0) }
        guard !orphaned.isEmpty else { return 0 }
        let filter = ItemFilter(groups: orphaned)
        return try store.write(.uninstall) { db in
            try db.execute(sql: "DELETE FROM item WHERE \(filter.sql)", arguments: filter.arguments)
            return db.changesCount
        }
    }

    /// Deletes every item in the store (`simctl keychain reset`), whatever its
    /// group or class, and returns how many. The lock state is kept.
    @discardableResult
    public func reset() throws -> Int {
        try store.write(.delete) { db in
            try db.execute(sql: "DELETE FROM item")
            return db.changesCount
        }
    }
}
