import CloudProtocol
import Crypto
import Foundation

/// A device the service authenticated from its bearer token.
public struct AuthenticatedDevice: Sendable, Hashable {
    public var accountID: Int64
    public var account: String
    public var deviceID: Int64
    public var name: String
    public var udid: String
}

extension Ledger {
    /// Creates an account that stores only a keyed hash of its
    /// authentication key. An existing name is a `conflict`.
    public func createAccount(name: String, authKey: [UInt8]) async throws(CloudServiceError) -> Int64 {
        let hash = Self.authHash(authKey)
        let quota = defaultQuota
        let created = now()
        return try await run { tx throws(CloudStorageError) in
            let rows = try await tx.execute("""
                INSERT INTO accounts (name, auth_hash, quota, used, created) VALUES (?, ?, ?, 0, ?)
                ON CONFLICT (name) DO NOTHING RETURNING id
                """, .text(name), .blob(hash), .integer(quota), .integer(created))
            guard let row = rows.first else { return .failure(CloudServiceError(.conflict, "the account \(name) exists")) }
            return .success(try row.int(0))
        }
    }

    /// Signs a device in: checks the authentication key, then gives the
    /// device (by UDID) a new token, replacing its old one. A wrong key and
    /// an unknown account are the same refusal, so names cannot be probed.
    public func signIn(account: String, authKey: [UInt8], deviceName: String, udid: String,
                       tokenHash: [UInt8]) async throws(CloudServiceError) -> AuthenticatedDevice {
        let created = now()
        return try await run { tx throws(CloudStorageError) in
            let refusal = CloudServiceError(.unauthorized, "wrong account or password")
            guard let row = try await tx.execute("SELECT id, auth_hash FROM accounts WHERE name = ?", .text(account)).first else {
                return .failure(refusal)
            }
            let accountID = try row.int(0)
            guard HMAC<SHA256>.isValidAuthenticationCode(try row.bytes(1), authenticating: authKey, using: Self.authHashKey) else {
                return .failure(refusal)
            }
            let existing = try await tx.execute("SELECT id FROM devices WHERE account_id = ? AND udid = ?",
                                                .integer(accountID), .text(udid))
            let deviceID: Int64
            if let device = existing.first {
                deviceID = try device.int(0)
                try await tx.execute("UPDATE devices SET token_hash = ?, name = ? WHERE id = ?",
                                     .blob(tokenHash), .text(deviceName), .integer(deviceID))
            } else {
                deviceID = try await tx.execute("""
                    INSERT INTO devices (account_id, name, udid, token_hash, created) VALUES (?, ?, ?, ?, ?) RETURNING id
                    """, .integer(accountID), .text(deviceName), .text(udid), .blob(tokenHash), .integer(created)).first?.int(0) ?? 0
            }
            return .success(AuthenticatedDevice(accountID: accountID, account: account, deviceID: deviceID, name: deviceName, udid: udid))
        }
    }

    /// The device whose token hashes to `tokenHash`, or `unauthorized`.
    public func authenticate(tokenHash: [UInt8]) async throws(CloudServiceError) -> AuthenticatedDevice {
        try await run(reading: true) { tx throws(CloudStorageError) in
            guard let row = try await tx.execute("""
                SELECT d.account_id, a.name, d.id, d.name, d.udid FROM devices d JOIN accounts a ON a.id = d.account_id
                WHERE d.token_hash = ?
                """, .blob(tokenHash)).first else {
                return .failure(CloudServiceError(.unauthorized, "unknown or revoked device token"))
            }
            return .success(AuthenticatedDevice(accountID: try row.int(0), account: try row.string(1), deviceID: try row.int(2),
                                                name: try row.string(3), udid: try row.string(4)))
        }
    }

    /// Sets an account's quota (the operator's call). Lowering it below the
    /// usage refuses further uploads; nothing stored is removed.
    public func setQuota(account: String, bytes: Int64) async throws(CloudServiceError) {
        guard bytes >= 0 else { throw CloudServiceError(.badRequest, "a quota is not negative") }
        try await run { tx throws(CloudStorageError) -> Result<Void, CloudServiceError> in
            let rows = try await tx.execute("UPDATE accounts SET quota = ? WHERE name = ? RETURNING id", .integer(bytes), .text(account))
            return rows.isEmpty ? .failure(CloudServiceError(.notFound, "no account \(account)")) : .success(())
        }
    }

    /// The account's quota, usage and devices.
    public func status(of device: AuthenticatedDevice) async throws(CloudServiceError) -> AccountStatus {
        try await run(reading: true) { tx throws(CloudStorageError) in
            guard let account = try await tx.execute("SELECT quota, used FROM accounts WHERE id = ?", .integer(device.accountID)).first else {
                return .failure(CloudServiceError(.notFound, "the account is gone"))
            }
            let chunkCount = try await tx.execute("SELECT COUNT(*) FROM chunks WHERE account_id = ?", .integer(device.accountID))
                .first?.int(0) ?? 0
            var devices: [DeviceStatus] = []
            for row in try await tx.execute("SELECT id, name, udid FROM devices WHERE account_id = ? ORDER BY id", .integer(device.accountID)) {
                let id = try row.int(0)
                let last = try await Self.snapshots(tx, accountID: device.accountID, deviceID: id).last
                let off = try await Self.appsOff(tx, deviceID: id)
                devices.append(DeviceStatus(deviceID: id, name: try row.string(1), udid: try row.string(2), lastSnapshot: last, appsOff: off))
            }
            return .success(AccountStatus(account: device.account, quotaBytes: try account.int(0), usedBytes: try account.int(1),
                                          chunkCount: chunkCount, devices: devices))
        }
    }

    /// Turns an app's backup on or off for one device of the caller's account.
    public func setApp(_ bundleID: String, enabled: Bool, deviceID: Int64, caller: AuthenticatedDevice) async throws(CloudServiceError) {
        try await run { tx throws(CloudStorageError) -> Result<Void, CloudServiceError> in
            guard try await Self.ownsDevice(tx, caller, deviceID) else { return .failure(Self.noDevice(deviceID)) }
            if enabled {
                try await tx.execute("DELETE FROM app_toggles WHERE device_id = ? AND bundle_id = ?", .integer(deviceID), .text(bundleID))
            } else {
                try await tx.execute("INSERT INTO app_toggles (device_id, bundle_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                                     .integer(deviceID), .text(bundleID))
            }
            return .success(())
        }
    }

    /// The apps whose backup is off on one device of the caller's account.
    public func appsOff(deviceID: Int64, caller: AuthenticatedDevice) async throws(CloudServiceError) -> [String] {
        try await run(reading: true) { tx throws(CloudStorageError) in
            guard try await Self.ownsDevice(tx, caller, deviceID) else { return .failure(Self.noDevice(deviceID)) }
            return .success(try await Self.appsOff(tx, deviceID: deviceID))
        }
    }

    static func appsOff(_ tx: any LedgerTransaction, deviceID: Int64) async throws(CloudStorageError) -> [String] {
        var names: [String] = []
        for row in try await tx.execute("SELECT bundle_id FROM app_toggles WHERE device_id = ? ORDER BY bundle_id", .integer(deviceID)) {
            names.append(try row.string(0))
        }
        return names
    }

    /// Whether `deviceID` belongs to the caller's account. Another
    /// account's device is answered as missing, never as forbidden, so
    /// ids cannot be probed.
    static func ownsDevice(_ tx: any LedgerTransaction, _ caller: AuthenticatedDevice, _ deviceID: Int64) async throws(CloudStorageError) -> Bool {
        !(try await tx.execute("SELECT 1 FROM devices WHERE id = ? AND account_id = ?", .integer(deviceID), .integer(caller.accountID)).isEmpty)
    }

    static func noDevice(_ id: Int64) -> CloudServiceError { CloudServiceError(.notFound, "no device \(id) in this account") }

    /// What the ledger keeps of an authentication key: its HMAC-SHA256
    /// under a fixed key, checked in constant time by swift-crypto.
    static func authHash(_ authKey: [UInt8]) -> [UInt8] {
        [UInt8](HMAC<SHA256>.authenticationCode(for: authKey, using: authHashKey))
    }

    static var authHashKey: SymmetricKey { SymmetricKey(data: Array("sandbox-cloud/auth-hash/v1".utf8)) }
}
