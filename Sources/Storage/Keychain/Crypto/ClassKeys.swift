import Crypto
import Foundation

/// The per-accessibility-class keys of one store, derived from the device
/// secret and the store's salt with HKDF-SHA256.
///
/// Only the salt and a check value are stored; the keys themselves live in
/// memory. Each class has its own key, as on iOS, so an item re-sealed under
/// another class (an update of its accessibility) needs the other key.
struct ClassKeys: Sendable {
    // Bytes rather than `SymmetricKey`, which swift-crypto does not mark
    // `Sendable`; a key value is rebuilt per use, which costs a copy.
    private let keys: [KeychainAccessibility: Data]
    /// A value derived from the secret and salt, stored to tell a wrong
    /// secret at open instead of at the first decryption.
    let check: Data

    init(secret: KeychainDeviceSecret, salt: Data) {
        var keys: [KeychainAccessibility: Data] = [:]
        for accessibility in KeychainAccessibility.allCases {
            keys[accessibility] = Self.derive(secret, salt: salt, info: "Sandbox keychain class key v1 \(accessibility.rawValue)")
                .withUnsafeBytes { Data($0) }
        }
        self.keys = keys
        check = Self.derive(secret, salt: salt, info: "Sandbox keychain secret check v1").withUnsafeBytes { Data($0) }
    }

    /// The key of `accessibility`'s class.
    func key(for accessibility: KeychainAccessibility) -> SymmetricKey {
        // Every class was derived in init; the fallback only keeps this total.
        SymmetricKey(data: keys[accessibility] ?? check)
    }

    static func derive(_ secret: KeychainDeviceSecret, salt: Data, info: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: secret.bytes), salt: salt, info: Data(info.utf8), outputByteCount: 32)
    }
}
