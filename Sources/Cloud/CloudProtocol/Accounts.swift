/// `POST /v1/accounts`: creates an account.
///
/// The service never sees the password: the device derives `authKey` from
/// it (``CloudKeys`` on the device side) and the service keeps only its
/// SHA-256.
public struct CreateAccountRequest: Codable, Sendable, Hashable {
    /// The account name (an Apple ID's role): 1 to 128 printable characters.
    public var account: String
    /// The 32-byte authentication key, base64.
    public var authKey: String

    public init(account: String, authKey: String) {
        self.account = account
        self.authKey = authKey
    }
}

/// `POST /v1/devices`: signs a device in to an account, returning its token.
public struct SignInRequest: Codable, Sendable, Hashable {
    public var account: String
    /// The same key as at creation, base64.
    public var authKey: String
    /// The device's name ("Ada's iPhone").
    public var deviceName: String
    /// The device's UDID: signing in again from the same device replaces
    /// its token rather than adding a device.
    public var udid: String

    public init(account: String, authKey: String, deviceName: String, udid: String) {
        self.account = account
        self.authKey = authKey
        self.deviceName = deviceName
        self.udid = udid
    }
}

/// The answer to a sign-in: the device's id and bearer token. The token is
/// shown once; the service stores its SHA-256.
public struct SignInResponse: Codable, Sendable, Hashable {
    public var account: String
    public var deviceID: Int64
    public var token: String

    public init(account: String, deviceID: Int64, token: String) {
        self.account = account
        self.deviceID = deviceID
        self.token = token
    }
}

/// `GET /v1/account`: the account's quota, usage and devices.
public struct AccountStatus: Codable, Sendable, Hashable {
    public var account: String
    /// The quota, in bytes (5 GB unless the operator set another).
    public var quotaBytes: Int64
    /// Unique stored bytes the account references, pending uploads included.
    public var usedBytes: Int64
    /// Unique chunks stored.
    public var chunkCount: Int64
    public var devices: [DeviceStatus]

    public init(account: String, quotaBytes: Int64, usedBytes: Int64, chunkCount: Int64, devices: [DeviceStatus]) {
        self.account = account
        self.quotaBytes = quotaBytes
        self.usedBytes = usedBytes
        self.chunkCount = chunkCount
        self.devices = devices
    }
}

/// One device of an account.
public struct DeviceStatus: Codable, Sendable, Hashable {
    public var deviceID: Int64
    public var name: String
    public var udid: String
    /// The device's current snapshot, if it has one.
    public var lastSnapshot: SnapshotSummary?
    /// Apps whose backup is turned off (Settings › iCloud › Manage Storage).
    public var appsOff: [String]

    public init(deviceID: Int64, name: String, udid: String, lastSnapshot: SnapshotSummary?, appsOff: [String]) {
        self.deviceID = deviceID
        self.name = name
        self.udid = udid
        self.lastSnapshot = lastSnapshot
        self.appsOff = appsOff
    }
}

/// `GET /v1/devices/{id}/apps`: the apps whose backup is turned off.
public struct AppToggles: Codable, Sendable, Hashable {
    public var appsOff: [String]
    public init(appsOff: [String]) { self.appsOff = appsOff }
}

/// `PUT /v1/devices/{id}/apps/{bundleID}`: turns one app's backup on or off.
public struct AppToggle: Codable, Sendable, Hashable {
    public var enabled: Bool
    public init(enabled: Bool) { self.enabled = enabled }
}

/// `PUT /v1/admin/accounts/{account}/quota` (operator only).
public struct QuotaUpdate: Codable, Sendable, Hashable {
    public var quotaBytes: Int64
    public init(quotaBytes: Int64) { self.quotaBytes = quotaBytes }
}
