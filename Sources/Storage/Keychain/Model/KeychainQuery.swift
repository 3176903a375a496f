/// What to look for (`SecItemCopyMatching`, `SecItemUpdate` and
/// `SecItemDelete` queries): a class, attributes that must match, and for
/// lookups how many matches and which parts of them to return.
public struct KeychainQuery: Sendable, Hashable {
    /// The class to search.
    public var itemClass: KeychainItemClass
    /// Attributes that must match exactly; `nil` ones match anything. Without
    /// an access group, every group the caller is entitled to is searched.
    public var attributes: KeychainAttributes
    /// How many matches a lookup returns. Updates and deletes always act on
    /// every match, as on iOS.
    public var limit: KeychainMatchLimit
    /// What a lookup returns of each match.
    public var returning: KeychainReturn

    /// Creates a query.
    public init(
        _ itemClass: KeychainItemClass, _ attributes: KeychainAttributes = KeychainAttributes(),
        limit: KeychainMatchLimit = .one, returning: KeychainReturn = .attributes
    ) {
        self.itemClass = itemClass
        self.attributes = attributes
        self.limit = limit
        self.returning = returning
    }
}

/// How many matches a lookup returns (`kSecMatchLimit`).
public enum KeychainMatchLimit: Sendable, Hashable {
    /// The first match, in the order items were added.
    case one
    /// Every match, in the order items were added.
    case all
}

/// Which parts of each match a lookup returns (`kSecReturnAttributes`,
/// `kSecReturnData`).
public struct KeychainReturn: OptionSet, Sendable, Hashable {
    /// The bits of the set.
    public let rawValue: Int
    /// A set from its bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The class, attributes and dates.
    public static let attributes = KeychainReturn(rawValue: 1)
    /// The decrypted data.
    public static let data = KeychainReturn(rawValue: 2)
    /// Both.
    public static let all: KeychainReturn = [.attributes, .data]
}
