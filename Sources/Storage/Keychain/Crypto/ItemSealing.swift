import Crypto
import Foundation

/// AES-GCM sealing of an item's data at rest.
///
/// The associated data binds the ciphertext to everything stored beside it
/// that decides who may have it: the item's row (its persistent identifier),
/// its class, its access group and its accessibility. A ciphertext copied
/// onto another row, or a row whose access group or class was changed in
/// the database to hand the item to another app, fails to open; every read
/// unseals it, attribute-only queries included, so such a row is never
/// returned at all.
enum ItemSealing {
    /// What a sealed item is bound to.
    struct Binding: Hashable, Sendable {
        var id: String
        var itemClass: KeychainItemClass
        var accessGroup: String
        var accessibility: KeychainAccessibility

        /// The associated data: `v2`, then each field with its length, so no
        /// two bindings share one encoding.
        var associatedData: Data {
            var text = "Sandbox keychain item v2"
            for field in [itemClass.rawValue, accessibility.rawValue, id, accessGroup] {
                text += " \(field.utf8.count):\(field)"
            }
            return Data(text.utf8)
        }

        /// The associated data of stores written before the binding covered
        /// the class and the access group (opened once, to re-seal them).
        var legacyAssociatedData: Data {
            Data("Sandbox keychain item v1 \(accessibility.rawValue) \(id)".utf8)
        }
    }

    /// The nonce, ciphertext and tag of `data`.
    static func seal(_ data: Data, _ binding: Binding, keys: ClassKeys) throws -> Data {
        do {
            let box = try AES.GCM.seal(data, using: keys.key(for: binding.accessibility),
                                       authenticating: binding.associatedData)
            guard let combined = box.combined else {
                throw KeychainError(.storageFailed, "AES-GCM gave no combined form")
            }
            return combined
        } catch let error as KeychainError {
            throw error
        } catch {
            throw KeychainError(.storageFailed, "cannot encrypt an item").caused(by: error)
        }
    }

    /// The data sealed by ``seal(_:_:keys:)``; `decodeFailed` if it was
    /// altered, moved, relabelled or sealed under another key.
    static func unseal(_ sealed: Data, _ binding: Binding, keys: ClassKeys) throws -> Data {
        try unseal(sealed, binding, authenticating: binding.associatedData, keys: keys)
    }

    /// The data of an item sealed before version 2 of the binding.
    static func unsealLegacy(_ sealed: Data, _ binding: Binding, keys: ClassKeys) throws -> Data {
        try unseal(sealed, binding, authenticating: binding.legacyAssociatedData, keys: keys)
    }

    private static func unseal(_ sealed: Data, _ binding: Binding, authenticating associatedData: Data,
                             keys: ClassKeys) throws -> Data {
        do {
            let box = try AES.GCM.SealedBox(combined: sealed)
            return try AES.GCM.open(box, using: keys.key(for: binding.accessibility), authenticating: associatedData)
        } catch {
            throw KeychainError(.decodeFailed,
                                "the data of item \(binding.id) does not decrypt: it was altered, relabelled or sealed under another key")
        }
    }
}

extension StoredItem {
    /// What this row's data is bound to.
    var binding: ItemSealing.Binding {
        ItemSealing.Binding(id: persistentID, itemClass: itemClass, accessGroup: accessGroup, accessibility: accessibility)
    }
}

extension StoredItem {
    /// This row with `data` sealed to its own binding.
    func sealing(_ data: Data, keys: ClassKeys) throws -> StoredItem {
        var sealed = self
        sealed.sealedData = try ItemSealing.seal(data, binding, keys: keys)
        return sealed
    }
}
