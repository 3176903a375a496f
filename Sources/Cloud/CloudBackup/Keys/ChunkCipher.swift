import CloudProtocol
import Crypto
import Foundation

/// Names, seals and opens chunks with an account's keys.
///
/// A sealed chunk is AES-256-GCM's combined form (12-byte nonce,
/// ciphertext, 16-byte tag), with the chunk's name as associated data: the
/// service cannot hand one chunk back for another, and opening checks the
/// plaintext's HMAC against the name too.
public struct ChunkCipher: Sendable {
    private let encryptionKey: [UInt8]
    private let identityKey: [UInt8]

    public init(keys: CloudKeys) {
        encryptionKey = keys.encryptionKey.withUnsafeBytes { Array($0) }
        identityKey = keys.identityKey.withUnsafeBytes { Array($0) }
    }

    /// The chunk's name: HMAC-SHA256 of the plaintext under the identity key.
    public func id<Bytes: DataProtocol>(of plaintext: Bytes) -> ChunkID {
        ChunkID(digest: HMAC<SHA256>.authenticationCode(for: plaintext, using: SymmetricKey(data: identityKey)))
    }

    /// The sealed bytes the service stores.
    public func seal<Bytes: DataProtocol>(_ plaintext: Bytes, id: ChunkID) throws(CloudBackupError) -> [UInt8] {
        do {
            let box = try AES.GCM.seal(plaintext, using: SymmetricKey(data: encryptionKey), authenticating: Array(id.hex.utf8))
            guard let combined = box.combined else { throw CloudBackupError(.badInput, "AES-GCM gave no combined form") }
            return [UInt8](combined)
        } catch let error as CloudBackupError {
            throw error
        } catch {
            throw CloudBackupError(.badInput, "cannot encrypt chunk \(id.hex)").caused(by: error)
        }
    }

    /// The plaintext of a sealed chunk, checked against its name.
    public func open(_ sealed: [UInt8], id: ChunkID) throws(CloudBackupError) -> [UInt8] {
        let plaintext: [UInt8]
        do {
            let box = try AES.GCM.SealedBox(combined: sealed)
            plaintext = [UInt8](try AES.GCM.open(box, using: SymmetricKey(data: encryptionKey), authenticating: Array(id.hex.utf8)))
        } catch {
            throw CloudBackupError(.damagedChunk, "chunk \(id.hex) does not decrypt with this account's key (damaged, or another account's)")
        }
        guard self.id(of: plaintext) == id else {
            throw CloudBackupError(.damagedChunk, "chunk \(id.hex) decrypts to content with another name")
        }
        return plaintext
    }
}
