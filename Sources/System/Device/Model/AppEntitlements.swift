import Container
import Keychain
import PropertyList

/// What an app is entitled to, read at install from the optional
/// `Entitlements.plist` at the bundle's root (the keys of a real
/// signature's entitlements; sealed with the rest of the bundle).
public struct AppEntitlements: Codable, Sendable, Hashable {
    /// The team prefix of apps whose bundle names none.
    public static let defaultTeamIdentifier = "SANDBOXTM0"
    /// The file read at the bundle's root.
    public static let fileName = "Entitlements.plist"

    /// `application-identifier`: `<team>.<bundle id>`.
    public var applicationIdentifier: String
    /// `keychain-access-groups`.
    public var keychainAccessGroups: [String]
    /// `com.apple.security.application-groups`.
    public var applicationGroups: [String]

    /// Creates entitlements.
    public init(applicationIdentifier: String, keychainAccessGroups: [String] = [], applicationGroups: [String] = []) {
        self.applicationIdentifier = applicationIdentifier
        self.keychainAccessGroups = keychainAccessGroups
        self.applicationGroups = applicationGroups
    }

    /// The keychain's view: access groups in iOS's order.
    public var keychain: KeychainEntitlements {
        KeychainEntitlements(applicationIdentifier: applicationIdentifier, keychainAccessGroups: keychainAccessGroups,
                             applicationGroups: applicationGroups)
    }

    /// Reads the bundle's entitlements, or the defaults when it has no file.
    static func read(from bundle: AppBundle) throws -> AppEntitlements {
        let identifier = bundle.info.identifier
        let fallback = AppEntitlements(applicationIdentifier: "\(defaultTeamIdentifier).\(identifier)")
        guard let data = try? bundle.contents(ofRelativePath: fileName) else { return fallback }
        let value: PropertyListValue
        do { value = try PropertyListValue(data: data) } catch {
            throw DeviceError(.invalidBundle, bundleID: identifier, path: fileName, "\(fileName) is not a property list")
        }
        func strings(_ key: String) throws -> [String] {
            guard let item = value[key] else { return [] }
            guard let array = item.arrayValue?.compactMap(\.stringValue), array.count == item.arrayValue?.count else {
                throw DeviceError(.invalidBundle, bundleID: identifier, path: fileName, "\(key) is not an array of strings")
            }
            return array
        }
        let groups = try strings("com.apple.security.application-groups")
        for group in groups where !group.hasPrefix("group.") || group.contains("/") {
            throw DeviceError(.invalidBundle, bundleID: identifier, path: fileName,
                              "app group '\(group)' must start with 'group.' and contain no '/'")
        }
        return AppEntitlements(
            applicationIdentifier: value["application-identifier"]?.stringValue ?? fallback.applicationIdentifier,
            keychainAccessGroups: try strings("keychain-access-groups"), applicationGroups: groups)
    }
}
