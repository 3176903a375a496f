import Foundation

/// A keychain item as a query returns it: its class and attributes (with
/// the access group and accessibility always filled in), its dates, and its
/// data when the query asked for it.
public struct KeychainItem: Sendable, Hashable {
    /// The item's class.
    public var itemClass: KeychainItemClass
    /// The item's attributes; `accessGroup` and `accessibility` are never `nil`.
    /// Empty when the query asked for data only.
    public var attributes: KeychainAttributes
    /// When the item was added (`kSecAttrCreationDate`).
    public var creationDate: Date?
    /// When the item was last changed (`kSecAttrModificationDate`).
    public var modificationDate: Date?
    /// The secret (`kSecValueData`), or `nil` when the query did not ask for it.
    public var data: Data?

    /// Creates an item value.
    public init(
        itemClass: KeychainItemClass, attributes: KeychainAttributes,
        creationDate: Date? = nil, modificationDate: Date? = nil, data: Data? = nil
    ) {
        self.itemClass = itemClass
        self.attributes = attributes
        self.creationDate = creationDate
        self.modificationDate = modificationDate
        self.data = data
    }
}
