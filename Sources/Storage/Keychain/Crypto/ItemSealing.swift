import Crypto
import Foundation

/// AES-GCM sealing of an item's data at rest.
///
/// The associated data binds the ciphertext to its row (the item's
/// persistent identifier) and class, so a ciphertext copied onto another row
/// or relabelled with a weaker class fails to open.
enum ItemSealing {
    /// The nonce, ciphertext and tag of `data`.
    static func seal(_ data: Data, id: String, accessibility: KeychainAccessibility, keys: ClassKeys) throws -> Data {
        do {
            let box = try AES.GCM.seal(data, using: keys.key(for: accessibility),
                                       authenticating: associatedData(id: id, accessibility: accessibility))
            guard let combined = box.combined else {
                throw KeychainError(.storageFailed, "AES-GCM gave no combined form")
            }
            return combined
        } catch let error as KeychainError {
            throw error
        } catch {
            throw KeychainError(.storageFailed, "cannot encrypt an item: \(error)")
        }
    }

    /// The data sealed by ``seal(_:id:accessibility:keys:)``; `decodeFailed`
    /// if it was altered, moved, or sealed under another key.
    static func open(_ sealed: Data, id: String, accessibility: KeychainAccessibility, keys: ClassKeys) throws -> Data {
        do {
            let box = try AES.GCM.SealedBox(combined: sealed)
            return try AES.GCM.open(box, using: keys.key(for: accessibility),
                                    authenticating: associatedData(id: id, accessibility: accessibility))
        } catch {
            throw KeychainError(.decodeFailed, "the data of item \(id) does not decrypt: it was altered or sealed under another key")
        }
    }

    private static func associatedData(id: String, accessibility: KeychainAccessibility) -> Data {
        Data("Sandbox keychain item v1 \(accessibility.rawValue) \(id)".utf8)
    }
}
