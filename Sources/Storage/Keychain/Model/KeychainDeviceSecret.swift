import Crypto
import Foundation

/// The simulated device's hardware key (iOS's UID key): the root of every
/// key that protects the keychain.
///
/// The secret is given to ``Keychain`` by its owner and is never written into
/// the store or into a backup: without it nothing in them can be decrypted,
/// and a backup made without a password can be imported only where the same
/// secret is given.
public struct KeychainDeviceSecret: Sendable {
    /// The smallest secret accepted, in bytes.
    public static let minimumByteCount = 16

    /// The secret's bytes, for an owner that keeps it (outside the store).
    public let bytes: Data

    /// A secret from its bytes; fewer than ``minimumByteCount`` is
    /// `invalidParameter`.
    public init(_ bytes: some DataProtocol) throws {
        guard bytes.count >= Self.minimumByteCount else {
            throw KeychainError(.invalidParameter,
                                "the device secret has \(bytes.count) bytes; at least \(Self.minimumByteCount) are needed")
        }
        self.bytes = Data(bytes)
    }

    /// A new random 32-byte secret, as a new device would have.
    public static func random() -> KeychainDeviceSecret {
        KeychainDeviceSecret(bytes: SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) })
    }

    private init(bytes: Data) { self.bytes = bytes }
}
