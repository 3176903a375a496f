import Device
import FileSystem
import Foundation

/// A device's iCloud sign-in: the service, the account, the device's token
/// and the account key derived from the password.
///
/// iOS keeps these in the system keychain; here they are one file outside
/// every app container, readable by the device's owner only:
/// `<device>/System/Library/CloudBackup/account.json` (mode 0600).
public struct CloudAccount: Codable, Sendable, Hashable {
    public var service: String
    public var account: String
    public var deviceID: Int64
    public var token: String
    /// The account key, base64 (see ``CloudKeys``).
    public var accountKey: String

    public init(service: String, account: String, deviceID: Int64, token: String, keys: CloudKeys) {
        self.service = service
        self.account = account
        self.deviceID = deviceID
        self.token = token
        self.accountKey = Data(keys.accountKey).base64EncodedString()
    }

    /// The keys the stored account key gives.
    public func keys() throws(CloudBackupError) -> CloudKeys {
        guard let data = Data(base64Encoded: accountKey) else { throw CloudBackupError(.badInput, "the stored account key is not base64") }
        return try CloudKeys(accountKey: [UInt8](data))
    }

    /// The directory of the device's iCloud backup state.
    public static func directory(of device: Device) -> String {
        device.systemRoot.appendingPathComponent("Library/CloudBackup").path
    }

    /// The device's sign-in, or `notSignedIn`.
    public static func load(from device: Device) throws(CloudBackupError) -> CloudAccount {
        let path = directory(of: device) + "/account.json"
        let data: Data?
        do { data = try FileSystemPaths.readFile(atPath: path) } catch {
            throw CloudBackupError(.io, "cannot read \(path)").caused(by: error)
        }
        guard let data else {
            throw CloudBackupError(.notSignedIn, "the device \(device.identity.name) is not signed in to iCloud backup; run sandbox cloud signin")
        }
        do { return try JSONDecoder().decode(CloudAccount.self, from: data) } catch {
            throw CloudBackupError(.io, "\(path) is damaged; sign in again").caused(by: error)
        }
    }

    /// Stores the sign-in on the device (atomically, mode 0600).
    public func save(to device: Device) throws(CloudBackupError) {
        let directory = Self.directory(of: device)
        do {
            try FileSystemPaths.makeDirectories(atPath: directory, permissions: 0o700)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            try FileSystemPaths.writeAtomically(try encoder.encode(self), toPath: directory + "/account.json",
                                                options: AtomicWriteOptions(durability: .full, permissions: 0o600))
        } catch let error as FileSystemError {
            throw CloudBackupError(.io, "cannot save the sign-in in \(directory)").caused(by: error)
        } catch {
            throw CloudBackupError(.io, "cannot encode the sign-in").caused(by: error)
        }
    }

    /// Signs `device` in: creates the account first when `create` is set.
    public static func signIn(device: Device, service: String, account: String, password: String, create: Bool,
                              rounds: Int = CloudKeys.defaultRounds) async throws(CloudBackupError) -> CloudAccount {
        let keys = try CloudKeys(password: password, account: account, rounds: rounds)
        let client = CloudClient(baseURL: service)
        if create {
            _ = try await client.createAccount(.init(account: account, authKey: keys.authKey))
        }
        let answer = try await client.signIn(.init(account: account, authKey: keys.authKey, deviceName: device.identity.name,
                                                   udid: device.identity.udid))
        let signedIn = CloudAccount(service: client.baseURL, account: account, deviceID: answer.deviceID, token: answer.token, keys: keys)
        try signedIn.save(to: device)
        return signedIn
    }

    /// A client for this sign-in.
    public var client: CloudClient { CloudClient(baseURL: service, token: token) }
}
