import CloudProtocol
import Crypto
import _CryptoExtras
import Foundation

/// The keys a device derives from the account password; the service sees
/// only ``authKey``, never the password or the other keys.
///
/// The account key is PBKDF2-HMAC-SHA256 of the password, salted with the
/// account name (so equal passwords of two accounts differ). HKDF-SHA256
/// splits it into independent keys:
/// - ``authKey``, which the service keeps a keyed hash of to sign devices in;
/// - the chunk encryption key (AES-256-GCM);
/// - the chunk identity key (HMAC-SHA256): a chunk's name is the HMAC of
///   its plaintext, so devices of one account name identical content alike
///   and the service deduplicates it, while names reveal nothing and differ
///   between accounts;
/// - ``keychainPassword``, which seals the keychain export in a snapshot.
public struct CloudKeys: Sendable, Hashable {
    /// The 32-byte account key (what a signed-in device keeps).
    public let accountKey: [UInt8]

    /// PBKDF2 rounds for a new derivation (tests pass fewer).
    public static let defaultRounds = 210_000

    /// Derives the keys from the password.
    public init(password: String, account: String, rounds: Int = CloudKeys.defaultRounds) throws(CloudBackupError) {
        guard !password.isEmpty else { throw CloudBackupError(.badInput, "the password is empty") }
        do {
            let key = try KDF.Insecure.PBKDF2.deriveKey(from: Array(password.utf8), salt: Array("sandbox-cloud/v1/\(account)".utf8),
                                                        using: .sha256, outputByteCount: 32, unsafeUncheckedRounds: max(1, rounds))
            accountKey = key.withUnsafeBytes { Array($0) }
        } catch {
            throw CloudBackupError(.badInput, "cannot derive the account key").caused(by: error)
        }
    }

    /// Keys from a stored account key.
    public init(accountKey: [UInt8]) throws(CloudBackupError) {
        guard accountKey.count == 32 else { throw CloudBackupError(.badInput, "an account key is 32 bytes, not \(accountKey.count)") }
        self.accountKey = accountKey
    }

    /// What the service checks at sign-in, base64.
    public var authKey: String { Data(derive("auth")).base64EncodedString() }

    /// The password that seals the keychain export in a snapshot.
    public var keychainPassword: String { Data(derive("keychain")).base64EncodedString() }

    var encryptionKey: SymmetricKey { SymmetricKey(data: derive("chunk-encryption")) }
    var identityKey: SymmetricKey { SymmetricKey(data: derive("chunk-identity")) }

    private func derive(_ purpose: String) -> [UInt8] {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: accountKey), info: Array("sandbox-cloud/\(purpose)".utf8),
                               outputByteCount: 32).withUnsafeBytes { Array($0) }
    }
}
