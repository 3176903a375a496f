/// The kind of a keychain item (`kSecClass`), which decides the attributes it
/// may carry and the attributes that identify it.
///
/// The raw values are the short codes iOS stores in its keychain database and
/// backups (`genp`, `inet`, `keys`).
public enum KeychainItemClass: String, Sendable, Hashable, CaseIterable, Codable {
    /// A password identified by service and account (`kSecClassGenericPassword`).
    case genericPassword = "genp"
    /// A password for a network resource, identified by server, protocol,
    /// port, path and account (`kSecClassInternetPassword`).
    case internetPassword = "inet"
    /// A cryptographic key, identified by application tag and label
    /// (`kSecClassKey`). The key bytes are the item's data.
    case key = "keys"

    /// The attributes an item of this class may carry; any other attribute in
    /// an add, update or query is refused with `noSuchAttribute`.
    public var allowedAttributes: Set<KeychainAttributeName> {
        let common: Set<KeychainAttributeName> = [.label, .accessGroup, .accessibility]
        switch self {
        case .genericPassword: return common.union([.service, .account])
        case .internetPassword: return common.union([.server, .protocol, .port, .path, .account])
        case .key: return common.union([.applicationTag])
        }
    }

    /// The attributes that identify an item within its access group: two items
    /// of one class and group with equal values here are duplicates.
    ///
    /// iOS's keys also include attributes this model does not have (security
    /// domain and authentication type for internet passwords; key type and
    /// size for keys); the access group is always part of the identity.
    public var primaryKeyAttributes: [KeychainAttributeName] {
        switch self {
        case .genericPassword: return [.service, .account]
        case .internetPassword: return [.server, .protocol, .port, .path, .account]
        case .key: return [.applicationTag, .label]
        }
    }
}

/// The name of one item attribute, used to report which attribute a class
/// does not allow and to describe primary keys.
///
/// The raw values are iOS's short attribute codes (`svce`, `acct` …).
public enum KeychainAttributeName: String, Sendable, Hashable, CaseIterable, Codable {
    /// ``KeychainAttributes/service``.
    case service = "svce"
    /// ``KeychainAttributes/account``.
    case account = "acct"
    /// ``KeychainAttributes/server``.
    case server = "srvr"
    /// ``KeychainAttributes/protocol``.
    case `protocol` = "ptcl"
    /// ``KeychainAttributes/port``.
    case port = "port"
    /// ``KeychainAttributes/path``.
    case path = "path"
    /// ``KeychainAttributes/label``.
    case label = "labl"
    /// ``KeychainAttributes/applicationTag``.
    case applicationTag = "atag"
    /// ``KeychainAttributes/accessGroup``.
    case accessGroup = "agrp"
    /// ``KeychainAttributes/accessibility``.
    case accessibility = "pdmn"
}
