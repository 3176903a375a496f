import GRDB

/// Counting items without reading them, for tools that report what an app
/// keeps (the storage audit).
extension Keychain {
    /// How many items lie in the access groups of `app`, whatever their
    /// class and lock class: no item is unsealed, so the count is the same
    /// whether the device is locked or not.
    public func itemCount(for app: KeychainEntitlements) throws -> Int {
        let filter = ItemFilter(groups: app.accessGroups)
        return try store.read(.query) { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item WHERE \(filter.sql)", arguments: filter.arguments) ?? 0
        }
    }
}
