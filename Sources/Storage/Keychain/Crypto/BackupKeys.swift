import Crypto
import _CryptoExtras
import Foundation

/// The keys that wrap a backup's items.
///
/// Without a password the key comes from the device secret (HKDF-SHA256), so
/// only the same device can import the backup, as with an unencrypted iOS
/// backup. With a password it comes from the password (PBKDF2-SHA256, from
/// swift-crypto's `_CryptoExtras`), so any device that knows it can.
enum BackupKeys {
    /// PBKDF2 rounds written into new backups: the smallest count
    /// swift-crypto's checked API accepts (OWASP's figure for SHA-256).
    static let defaultRounds = 210_000
    /// The most rounds an imported backup may ask for, so a crafted file
    /// cannot make an import run for minutes.
    static let maximumRounds = 10_000_000

    static func deviceKey(_ secret: KeychainDeviceSecret, salt: Data) -> SymmetricKey {
        ClassKeys.derive(secret, salt: salt, info: "Sandbox keychain backup key v1")
    }

    static func passwordKey(_ password: String, salt: Data, rounds: Int) throws -> SymmetricKey {
        guard (defaultRounds...maximumRounds).contains(rounds) else {
            throw KeychainError(.decodeFailed, "the backup asks for \(rounds) PBKDF2 rounds; \(defaultRounds)…\(maximumRounds) are accepted")
        }
        do {
            return try KDF.Insecure.PBKDF2.deriveKey(
                from: Data(password.utf8), salt: salt, using: .sha256, outputByteCount: 32, rounds: rounds)
        } catch {
            throw KeychainError(.storageFailed, "cannot derive the backup key").caused(by: error)
        }
    }
}
