import Crypto
import _CryptoExtras
import Foundation

/// A backup keybag (`BackupKeyBag` in `Manifest.plist`): a run of TLV
/// entries (4 ASCII tag bytes, a big-endian 32-bit length, the value).
/// The header (`VERS`, `TYPE`, `UUID`, `HMCK`, `WRAP`, `SALT`, `ITER` and,
/// since iOS 10.2, `DPWT`, `DPIC`, `DPSL`) comes first; then every class
/// key starts with its own `UUID` and carries `CLAS`, `WRAP`, `KTYP` and
/// `WPKY`, the class key wrapped (RFC 3394) with the key derived from the password.
struct BackupKeyBag: Sendable {
    /// One class key entry, still wrapped.
    struct ClassEntry: Sendable {
        var uuid: Data
        var protectionClass, wrap, keyType: Int
        var wrappedKey: Data
    }

    var version: Int = 5
    var type: Int = 1
    var uuid = Data()
    var salt = Data()
    var iterations = 0
    var doubleProtectionSalt: Data?
    var doubleProtectionIterations: Int?
    var classes: [ClassEntry] = []

    /// The wrap flag meaning "wrapped with the passcode-derived key".
    static let wrapPasscode = 2

    /// Builds a new keybag: fresh random class keys for classes 1…11, each
    /// wrapped with the key derived from `password`. Returns the keybag and
    /// the plain class keys.
    static func create(password: String, parameters: BackupKeyDerivation) throws -> (BackupKeyBag, [Int: SymmetricKey]) {
        var bag = BackupKeyBag()
        bag.uuid = randomBytes(16)
        bag.salt = randomBytes(20)
        bag.iterations = parameters.iterations
        bag.doubleProtectionSalt = randomBytes(20)
        bag.doubleProtectionIterations = parameters.doubleProtectionIterations
        let kek = try bag.keyEncryptionKey(password: password)
        var keys: [Int: SymmetricKey] = [:]
        for protectionClass in 1...11 {
            let key = SymmetricKey(size: .bits256)
            let wrapped = try wrapKey(key, with: kek)
            bag.classes.append(ClassEntry(uuid: randomBytes(16), protectionClass: protectionClass, wrap: wrapPasscode,
                                          keyType: 0, wrappedKey: wrapped))
            keys[protectionClass] = key
        }
        return (bag, keys)
    }

    /// The key that unwraps the class keys: PBKDF2-HMAC-SHA256 over the
    /// password with `DPSL`/`DPIC`, then PBKDF2-HMAC-SHA1 over that with
    /// `SALT`/`ITER` (iOS 10.2+); only the second step without `DPSL`.
    func keyEncryptionKey(password: String) throws -> SymmetricKey {
        var secret = Data(password.utf8)
        do {
            if let doubleProtectionSalt, let doubleProtectionIterations {
                let first = try KDF.Insecure.PBKDF2.deriveKey(from: secret, salt: doubleProtectionSalt, using: .sha256,
                                                              outputByteCount: 32, unsafeUncheckedRounds: doubleProtectionIterations)
                secret = first.withUnsafeBytes { Data($0) }
            }
            return try KDF.Insecure.PBKDF2.deriveKey(from: secret, salt: salt, using: .insecureSHA1,
                                                     outputByteCount: 32, unsafeUncheckedRounds: iterations)
        } catch {
            throw MobileBackupError(.cryptoFailed, "cannot derive the keybag key").caused(by: error)
        }
    }

    /// The plain class keys, or ``MobileBackupErrorCode/wrongPassword``
    /// when the password's key does not unwrap them (RFC 3394's integrity check fails).
    func unlock(password: String) throws -> [Int: SymmetricKey] {
        let kek = try keyEncryptionKey(password: password)
        var keys: [Int: SymmetricKey] = [:]
        for entry in classes where entry.wrap & Self.wrapPasscode != 0 {
            do {
                keys[entry.protectionClass] = try AES.KeyWrap.unwrap(entry.wrappedKey, using: kek)
            } catch {
                throw MobileBackupError(.wrongPassword, "the password does not unlock the backup")
            }
        }
        guard !keys.isEmpty else { throw MobileBackupError(.malformedKeyBag, "the keybag holds no password-wrapped class keys") }
        return keys
    }

    // MARK: - TLV

    /// The keybag's bytes.
    func serialized() -> Data {
        var out = Data()
        func put(_ tag: String, _ value: Data) {
            out.append(contentsOf: Array(tag.utf8))
            out.append(contentsOf: bigEndian(UInt32(value.count)))
            out.append(value)
        }
        func put(_ tag: String, _ number: Int) { put(tag, Data(bigEndian(UInt32(truncatingIfNeeded: number)))) }
        put("VERS", version)
        put("TYPE", type)
        put("UUID", uuid)
        put("HMCK", Data(count: 40))
        put("WRAP", 0)
        put("SALT", salt)
        put("ITER", iterations)
        if let doubleProtectionSalt, let doubleProtectionIterations {
            put("DPWT", 1)
            put("DPIC", doubleProtectionIterations)
            put("DPSL", doubleProtectionSalt)
        }
        for entry in classes {
            put("UUID", entry.uuid)
            put("CLAS", entry.protectionClass)
            put("WRAP", entry.wrap)
            put("KTYP", entry.keyType)
            put("WPKY", entry.wrappedKey)
        }
        return out
    }

    /// Parses a keybag; every length is checked against the bytes left.
    static func parse(_ bytes: Data) throws -> BackupKeyBag {
        let data = [UInt8](bytes)
        var bag = BackupKeyBag()
        var current: ClassEntry?
        var offset = 0
        func number(_ value: ArraySlice<UInt8>) -> Int {
            value.reduce(0) { ($0 << 8) | Int($1) }
        }
        while offset < data.count {
            guard data.count - offset >= 8 else {
                throw MobileBackupError(.malformedKeyBag, "the keybag ends inside an entry header at offset \(offset)")
            }
            let tag = String(decoding: data[offset..<offset + 4], as: UTF8.self)
            let length = number(data[offset + 4..<offset + 8])
            guard length <= data.count - offset - 8 else {
                throw MobileBackupError(.malformedKeyBag, "the keybag entry \(tag) at offset \(offset) is longer than the keybag")
            }
            let value = data[offset + 8..<offset + 8 + length]
            offset += 8 + length
            let small = length <= 8 ? number(value) : 0
            if tag == "UUID" {
                if bag.uuid.isEmpty && current == nil {
                    bag.uuid = Data(value)
                } else {
                    if let current { bag.classes.append(current) }
                    current = ClassEntry(uuid: Data(value), protectionClass: 0, wrap: 0, keyType: 0, wrappedKey: Data())
                }
                continue
            }
            if current != nil {
                switch tag {
                case "CLAS": current?.protectionClass = small
                case "WRAP": current?.wrap = small
                case "KTYP": current?.keyType = small
                case "WPKY": current?.wrappedKey = Data(value)
                default: break
                }
                continue
            }
            switch tag {
            case "VERS": bag.version = small
            case "TYPE": bag.type = small
            case "SALT": bag.salt = Data(value)
            case "ITER": bag.iterations = small
            case "DPSL": bag.doubleProtectionSalt = Data(value)
            case "DPIC": bag.doubleProtectionIterations = small
            default: break
            }
        }
        if let current { bag.classes.append(current) }
        guard !bag.salt.isEmpty, bag.iterations > 0 else {
            throw MobileBackupError(.malformedKeyBag, "the keybag has no SALT or ITER")
        }
        if (bag.doubleProtectionSalt == nil) != (bag.doubleProtectionIterations == nil) {
            throw MobileBackupError(.malformedKeyBag, "the keybag has only one of DPSL and DPIC")
        }
        // The counts come from the backup, which may be hostile: 2^32-1 rounds
        // would run for days. Refused before any key is derived.
        for (tag, count) in [("ITER", bag.iterations), ("DPIC", bag.doubleProtectionIterations ?? 0)]
        where count > BackupKeyDerivation.maximumIterations {
            throw MobileBackupError(.malformedKeyBag,
                                    "the keybag's \(tag) asks for \(count) iterations; at most \(BackupKeyDerivation.maximumIterations) are accepted")
        }
        return bag
    }

    private func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}

/// The key-derivation cost written into new encrypted backups' keybags.
public struct BackupKeyDerivation: Sendable, Hashable {
    /// `DPIC`: PBKDF2-HMAC-SHA256 rounds (iOS uses 10,000,000).
    public var doubleProtectionIterations: Int
    /// `ITER`: PBKDF2-HMAC-SHA1 rounds (iOS uses 10,000).
    public var iterations: Int

    /// Creates a derivation cost.
    public init(doubleProtectionIterations: Int, iterations: Int) {
        self.doubleProtectionIterations = doubleProtectionIterations
        self.iterations = iterations
    }

    /// The most iterations a keybag may ask for, in `ITER` or `DPIC`: what
    /// iOS itself uses at most. A keybag asking for more is refused
    /// (``MobileBackupErrorCode/malformedKeyBag``) before anything is derived.
    public static let maximumIterations = 10_000_000

    /// The counts iOS writes: 10,000,000 and 10,000.
    public static let iOS = BackupKeyDerivation(doubleProtectionIterations: 10_000_000, iterations: 10_000)
}

func randomBytes(_ count: Int) -> Data {
    var generator = SystemRandomNumberGenerator()
    return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
}

func wrapKey(_ key: SymmetricKey, with kek: SymmetricKey) throws -> Data {
    do {
        return try AES.KeyWrap.wrap(key, using: kek)
    } catch {
        throw MobileBackupError(.cryptoFailed, "cannot wrap a key").caused(by: error)
    }
}
