import Foundation

/// The device a backup belongs to, as `Info.plist` and the `Lockdown`
/// dictionary of `Manifest.plist` describe it.
public struct BackupDeviceInfo: Sendable, Hashable {
    /// The device's UDID (40 lower-case hex digits on older devices); it
    /// also names the backup directory.
    public var udid: String
    /// The name the user gave the device.
    public var deviceName: String
    /// The model identifier, such as `iPhone15,2`.
    public var productType: String
    /// The iOS version, such as `17.5.1`.
    public var productVersion: String
    /// The iOS build, such as `21F90`.
    public var buildVersion: String
    /// The serial number.
    public var serialNumber: String
    /// The IMEI (some readers require the key, so it is always written).
    public var imei: String

    /// Creates a description of a device.
    public init(udid: String, deviceName: String, productType: String = "iPhone15,2", productVersion: String = "17.5.1",
                buildVersion: String = "21F90", serialNumber: String = "SANDBOX00001", imei: String = "") {
        self.udid = udid
        self.deviceName = deviceName
        self.productType = productType
        self.productVersion = productVersion
        self.buildVersion = buildVersion
        self.serialNumber = serialNumber
        self.imei = imei
    }
}

/// An installed app as the backup's `Applications` dictionaries list it.
public struct BackupApplication: Sendable, Hashable {
    /// The bundle identifier.
    public var bundleIdentifier: String
    /// `CFBundleVersion`.
    public var version: String
    /// The bundle's path on the device (`/private/var/containers/Bundle/Application/<UUID>/X.app`).
    public var path: String

    /// Creates an application entry.
    public init(bundleIdentifier: String, version: String, path: String) {
        self.bundleIdentifier = bundleIdentifier
        self.version = version
        self.path = path
    }
}
