import Foundation

/// The settable attributes of a keychain item. In an add they describe the
/// new item; in a query every non-`nil` one must match exactly; in an update
/// every non-`nil` one replaces the item's value.
///
/// Which attributes a class allows is ``KeychainItemClass/allowedAttributes``.
/// In identities (see ``KeychainItemClass/primaryKeyAttributes``) a missing
/// string counts as the empty string and a missing port as 0, as on iOS.
public struct KeychainAttributes: Sendable, Hashable {
    /// The service a generic password belongs to (`kSecAttrService`).
    public var service: String?
    /// The account name (`kSecAttrAccount`).
    public var account: String?
    /// The host of an internet password (`kSecAttrServer`).
    public var server: String?
    /// The protocol of an internet password (`kSecAttrProtocol`).
    public var `protocol`: KeychainProtocol?
    /// The port of an internet password (`kSecAttrPort`).
    public var port: Int?
    /// The path of an internet password (`kSecAttrPath`).
    public var path: String?
    /// A name for people (`kSecAttrLabel`); part of a key's identity.
    public var label: String?
    /// The tag that identifies a key (`kSecAttrApplicationTag`).
    public var applicationTag: Data?
    /// The access group (`kSecAttrAccessGroup`). An add without one uses the
    /// caller's default group.
    public var accessGroup: String?
    /// When the data can be read (`kSecAttrAccessible`). An add without one
    /// uses ``KeychainAccessibility/whenUnlocked``.
    public var accessibility: KeychainAccessibility?

    /// Creates attributes; every one is optional.
    public init(
        service: String? = nil, account: String? = nil, server: String? = nil,
        protocol: KeychainProtocol? = nil, port: Int? = nil, path: String? = nil,
        label: String? = nil, applicationTag: Data? = nil, accessGroup: String? = nil,
        accessibility: KeychainAccessibility? = nil
    ) {
        self.service = service
        self.account = account
        self.server = server
        self.protocol = `protocol`
        self.port = port
        self.path = path
        self.label = label
        self.applicationTag = applicationTag
        self.accessGroup = accessGroup
        self.accessibility = accessibility
    }

    /// The names of the attributes that are set.
    public var names: Set<KeychainAttributeName> {
        var result: Set<KeychainAttributeName> = []
        if service != nil { result.insert(.service) }
        if account != nil { result.insert(.account) }
        if server != nil { result.insert(.server) }
        if self.protocol != nil { result.insert(.protocol) }
        if port != nil { result.insert(.port) }
        if path != nil { result.insert(.path) }
        if label != nil { result.insert(.label) }
        if applicationTag != nil { result.insert(.applicationTag) }
        if accessGroup != nil { result.insert(.accessGroup) }
        if accessibility != nil { result.insert(.accessibility) }
        return result
    }

    /// These attributes with every set attribute of `changes` replacing its own.
    public func merging(_ changes: KeychainAttributes) -> KeychainAttributes {
        KeychainAttributes(
            service: changes.service ?? service, account: changes.account ?? account,
            server: changes.server ?? server, protocol: changes.protocol ?? self.protocol,
            port: changes.port ?? port, path: changes.path ?? path, label: changes.label ?? label,
            applicationTag: changes.applicationTag ?? applicationTag,
            accessGroup: changes.accessGroup ?? accessGroup,
            accessibility: changes.accessibility ?? accessibility)
    }
}
