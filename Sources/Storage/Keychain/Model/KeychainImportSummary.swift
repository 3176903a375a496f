/// What importing a backup did.
public struct KeychainImportSummary: Sendable, Hashable {
    /// Items added or written over an existing item.
    public var imported: Int
    /// Of those, items that replaced an item with the same identity.
    public var replaced: Int
    /// `ThisDeviceOnly` items found in the backup and left out (a backup
    /// made by this module never holds any).
    public var skipped: Int

    /// Creates a summary.
    public init(imported: Int, replaced: Int, skipped: Int) {
        self.imported = imported
        self.replaced = replaced
        self.skipped = skipped
    }
}
