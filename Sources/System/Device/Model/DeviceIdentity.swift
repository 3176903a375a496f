/// Who a device is: what `simctl list` and a backup's `Info.plist` show.
public struct DeviceIdentity: Codable, Sendable, Hashable {
    /// The unique device identifier (a UUID string, upper case, as the
    /// simulator's).
    public var udid: String
    /// The device's name (`"default"`, `"iPhone"`).
    public var name: String
    /// The hardware model (`"iPhone15,2"`).
    public var productType: String
    /// The iOS version the device simulates (`"17.0"`).
    public var productVersion: String

    /// Creates an identity.
    public init(udid: String, name: String, productType: String = "iPhone15,2", productVersion: String = "17.0") {
        self.udid = udid
        self.name = name
        self.productType = productType
        self.productVersion = productVersion
    }
}
