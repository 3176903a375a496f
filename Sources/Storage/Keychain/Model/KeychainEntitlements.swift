/// What a calling app is entitled to in the keychain: its access groups.
///
/// iOS builds an app's list in this order: the `keychain-access-groups`
/// entitlement, then the application identifier (`<team>.<bundle id>`), then
/// the `com.apple.security.application-groups` entitlement. The first entry
/// is the default group for new items. An app sees only items in its groups;
/// two apps that list one group share the items in it.
public struct KeychainEntitlements: Sendable, Hashable, Codable {
    /// The access groups, default first, without repeats.
    public private(set) var accessGroups: [String]

    /// The groups of an app, in iOS's order.
    ///
    /// - Parameters:
    ///   - applicationIdentifier: `<team id>.<bundle id>`.
    ///   - keychainAccessGroups: the `keychain-access-groups` entitlement.
    ///   - applicationGroups: the `com.apple.security.application-groups` entitlement.
    public init(applicationIdentifier: String, keychainAccessGroups: [String] = [], applicationGroups: [String] = []) {
        self.init(accessGroups: keychainAccessGroups + [applicationIdentifier] + applicationGroups)
    }

    /// An explicit list of groups, default first; repeats after the first are dropped.
    public init(accessGroups: [String]) {
        var seen: Set<String> = []
        self.accessGroups = accessGroups.filter { seen.insert($0).inserted }
    }

    /// The group an add without `accessGroup` uses, or `nil` for an app with no groups.
    public var defaultAccessGroup: String? { accessGroups.first }

    /// Whether the app may use `group`.
    public func allows(_ group: String) -> Bool { accessGroups.contains(group) }
}
