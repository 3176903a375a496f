import Foundation
import OrderedCollections
import PropertyList

/// The layout of a keychain backup: a binary property list envelope whose
/// `Payload` is the AES-GCM sealed (nonce, ciphertext, tag) binary property
/// list of the items.
///
/// Envelope keys: `Format` ("Sandbox keychain backup"), `Version` (1),
/// `Protection` ("device" or "password"), `Salt` (32 bytes), `Rounds` (PBKDF2
/// rounds, password backups only) and `Payload`. The payload is a dictionary
/// whose `Items` array holds one dictionary per item, keyed by iOS's
/// attribute codes: `class`, `agrp`, `pdmn`, `svce`, `acct`, `srvr`, `ptcl`,
/// `port`, `path`, `labl`, `atag`, `cdat`, `mdat` and `v_Data`, the
/// plaintext data, readable only inside the sealed payload.
enum KeychainBackupFormat {
    static let formatName = "Sandbox keychain backup"
    static let version: Int64 = 1

    /// How a backup's payload key is made.
    enum Protection: String {
        /// From the device secret: importable only on the same device.
        case device
        /// From a password: importable on any device.
        case password
    }

    /// The envelope's fields.
    struct Envelope {
        var protection: Protection
        var salt: Data
        var rounds: Int?
        var payload: Data
    }

    /// The associated data of the payload seal, binding it to its protection.
    static func associatedData(_ protection: Protection) -> Data {
        Data("\(formatName) v\(version) \(protection.rawValue)".utf8)
    }

    static func encode(_ envelope: Envelope) throws -> Data {
        var fields: OrderedDictionary<String, PropertyListValue> = [
            "Format": .string(formatName), "Version": .integer(PropertyListInteger(version)),
            "Protection": .string(envelope.protection.rawValue), "Salt": .data(envelope.salt),
        ]
        if let rounds = envelope.rounds { fields["Rounds"] = .integer(PropertyListInteger(Int64(rounds))) }
        fields["Payload"] = .data(envelope.payload)
        return try encodeBinary(.dictionary(fields))
    }

    static func decodeEnvelope(_ data: Data) throws -> Envelope {
        let value = try decodeBinary(data, what: "backup")
        guard value["Format"]?.stringValue == formatName else {
            throw KeychainError(.decodeFailed, "the data is not a keychain backup")
        }
        guard value["Version"]?.int64Value == version else {
            throw KeychainError(.decodeFailed, "keychain backup version \(value["Version"]?.int64Value.map(String.init) ?? "?") is not supported")
        }
        guard let protectionName = value["Protection"]?.stringValue, let protection = Protection(rawValue: protectionName),
              let salt = value["Salt"]?.dataValue, let payload = value["Payload"]?.dataValue else {
            throw KeychainError(.decodeFailed, "the keychain backup lacks its protection, salt or payload")
        }
        var rounds: Int?
        if protection == .password {
            guard let count = value["Rounds"]?.int64Value, let exact = Int(exactly: count) else {
                throw KeychainError(.decodeFailed, "the password-protected backup lacks its PBKDF2 rounds")
            }
            rounds = exact
        }
        return Envelope(protection: protection, salt: salt, rounds: rounds, payload: payload)
    }

    static func encodeItems(_ items: [BackupItem]) throws -> Data {
        try encodeBinary(["Items": .array(items.map(\.propertyList))])
    }

    static func decodeItems(_ data: Data) throws -> [BackupItem] {
        guard let list = try decodeBinary(data, what: "backup payload")["Items"]?.arrayValue else {
            throw KeychainError(.decodeFailed, "the backup payload has no Items array")
        }
        return try list.enumerated().map { index, value in try BackupItem(value, index: index) }
    }

    private static func encodeBinary(_ value: PropertyListValue) throws -> Data {
        do {
            return try value.encoded(as: .binary)
        } catch {
            throw KeychainError(.storageFailed, "cannot write the backup").caused(by: error)
        }
    }

    private static func decodeBinary(_ data: Data, what: String) throws -> PropertyListValue {
        do {
            return try PropertyListValue.decode(data, as: .binary)
        } catch {
            throw KeychainError(.decodeFailed, "the \(what) is not a binary property list").caused(by: error)
        }
    }
}
