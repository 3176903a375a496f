import Crypto
import _CryptoExtras
import Foundation

/// An unlocked encrypted backup: the keybag and its plain class keys, which
/// wrap each file's own key (`EncryptionKey`) and the Manifest.db key (`ManifestKey`).
struct BackupEncryption: Sendable {
    var keyBag: BackupKeyBag
    private var classKeys: [Int: SendableKey]

    init(keyBag: BackupKeyBag, classKeys: [Int: SymmetricKey]) {
        self.keyBag = keyBag
        self.classKeys = classKeys.mapValues(SendableKey.init)
    }

    /// The class whose key wraps `ManifestKey` (iOS uses class D, 4).
    static let manifestClass = 4

    /// A fresh random key for one file and its 44-byte `EncryptionKey` blob
    /// (little-endian class number, then the key wrapped with the class key).
    func newFileKey(protectionClass: BackupProtectionClass) throws -> (key: SymmetricKey, blob: Data) {
        let key = SymmetricKey(size: .bits256)
        return (key, try blob(for: key, protectionClass: protectionClass.rawValue))
    }

    /// The blob wrapping `key` with the key of `protectionClass`.
    func blob(for key: SymmetricKey, protectionClass: Int) throws -> Data {
        guard let classKey = classKeys[protectionClass] else {
            throw MobileBackupError(.malformedKeyBag, "the keybag has no key for protection class \(protectionClass)")
        }
        var blob = Data(littleEndian(UInt32(truncatingIfNeeded: protectionClass)))
        blob.append(try wrapKey(key, with: classKey.key))
        return blob
    }

    /// The key a 44-byte `EncryptionKey` or `ManifestKey` blob holds.
    func unwrap(blob: Data) throws -> SymmetricKey {
        guard blob.count > 4 else { throw MobileBackupError(.cryptoFailed, "a wrapped key is \(blob.count) bytes long") }
        let bytes = [UInt8](blob)
        let protectionClass = Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16 | Int(bytes[3]) << 24
        guard let classKey = classKeys[protectionClass] else {
            throw MobileBackupError(.cryptoFailed, "the keybag has no key for protection class \(protectionClass)")
        }
        do {
            return try AES.KeyWrap.unwrap(bytes[4...], using: classKey.key)
        } catch {
            throw MobileBackupError(.cryptoFailed, "a wrapped key does not unwrap with its class key")
        }
    }

    private func littleEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)]
    }
}

/// AES-256-CBC with a zero IV and PKCS#7 padding, the cipher of every
/// payload and of Manifest.db, fed in pieces so large files never sit in
/// memory whole. Each piece but the last must be a multiple of 16 bytes;
/// the chain carries on from the previous piece's last ciphertext block.
struct CBCStream {
    private let key: SymmetricKey
    private var chain: AES._CBC.IV

    init(key: SymmetricKey) throws {
        self.key = key
        do {
            chain = try AES._CBC.IV(ivBytes: [UInt8](repeating: 0, count: 16))
        } catch {
            throw MobileBackupError(.cryptoFailed, "cannot set up AES-CBC").caused(by: error)
        }
    }

    /// Encrypts the next piece; `isLast` adds the padding.
    mutating func encrypt<D: DataProtocol>(_ piece: D, isLast: Bool) throws -> Data {
        do {
            let ciphertext = try AES._CBC.encrypt(piece, using: key, iv: chain, noPadding: !isLast)
            if ciphertext.count >= 16 { chain = try AES._CBC.IV(ivBytes: ciphertext.suffix(16)) }
            return ciphertext
        } catch {
            throw MobileBackupError(.cryptoFailed, "AES-CBC encryption failed").caused(by: error)
        }
    }

    /// Decrypts the next piece (a multiple of 16 bytes); `isLast` checks and removes the padding.
    mutating func decrypt<D: DataProtocol>(_ piece: D, isLast: Bool) throws -> Data {
        guard piece.count % 16 == 0 else {
            throw MobileBackupError(.cryptoFailed, "the ciphertext is not a whole number of AES blocks")
        }
        do {
            let next = piece.count >= 16 ? try AES._CBC.IV(ivBytes: piece.suffix(16)) : chain
            let plaintext = try AES._CBC.decrypt(piece, using: key, iv: chain, noPadding: !isLast)
            chain = next
            return plaintext
        } catch let error as MobileBackupError {
            throw error
        } catch {
            throw MobileBackupError(.cryptoFailed, "AES-CBC decryption failed (a wrong key or damaged data)").caused(by: error)
        }
    }

    /// Encrypts `data` whole.
    static func encrypt(_ data: Data, key: SymmetricKey) throws -> Data {
        var stream = try CBCStream(key: key)
        return try stream.encrypt(data, isLast: true)
    }

    /// Decrypts `data` whole.
    static func decrypt(_ data: Data, key: SymmetricKey) throws -> Data {
        var stream = try CBCStream(key: key)
        return try stream.decrypt(data, isLast: true)
    }
}
