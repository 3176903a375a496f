import PropertyList

/// The keys of a bundle's `Info.plist` that the system acts on.
public struct BundleInfo: Sendable, Hashable {
    /// `CFBundleIdentifier`.
    public var identifier: String
    /// `CFBundleVersion` (the build number).
    public var version: String
    /// `CFBundleShortVersionString` (the marketing version).
    public var shortVersion: String?
    /// `CFBundleExecutable`.
    public var executable: String
    /// `CFBundleDisplayName`, else `CFBundleName`.
    public var displayName: String?
    /// `CFBundleDevelopmentRegion`: the localization used when none of the
    /// user's languages is available.
    public var developmentRegion: String?
    /// `UIRequiresPersistentWiFi`.
    public var requiresPersistentWiFi: Bool
    /// The whole property list.
    public var raw: PropertyListValue

    /// Reads the keys from a decoded `Info.plist`. The identifier, version
    /// and executable are required.
    public init(_ value: PropertyListValue) throws {
        guard value.dictionaryValue != nil else {
            throw ContainerError(.corrupt, path: "Info.plist", "Info.plist is not a dictionary")
        }
        func required(_ key: String) throws -> String {
            guard let string = value[key]?.stringValue, !string.isEmpty else {
                throw ContainerError(.corrupt, path: "Info.plist", "Info.plist has no string \(key)")
            }
            return string
        }
        identifier = try required("CFBundleIdentifier")
        version = try required("CFBundleVersion")
        executable = try required("CFBundleExecutable")
        shortVersion = value["CFBundleShortVersionString"]?.stringValue
        displayName = value["CFBundleDisplayName"]?.stringValue ?? value["CFBundleName"]?.stringValue
        developmentRegion = value["CFBundleDevelopmentRegion"]?.stringValue
        requiresPersistentWiFi = value["UIRequiresPersistentWiFi"]?.boolValue ?? false
        raw = value
    }
}
