import Crypto

/// A `SymmetricKey` that threads may share.
///
/// `@unchecked Sendable`: swift-crypto's `SymmetricKey` is an immutable
/// value (its bytes are never changed after it is made) but is not marked
/// `Sendable` in the versions this package supports; this is the one place
/// that vouches for it, so the types that hold keys (``BackupEncryption``,
/// the backup plan) are checked.
struct SendableKey: @unchecked Sendable {
    let key: SymmetricKey

    init(_ key: SymmetricKey) { self.key = key }
}
