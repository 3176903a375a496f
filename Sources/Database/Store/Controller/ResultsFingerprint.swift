import Crypto
import Foundation

/// A digest of everything that decides a fetched-results controller's
/// contents: the store, the entity, the predicate after its variables were
/// substituted, the sort descriptors and the section key path.
///
/// The persistent cache is looked up by this fingerprint, not by its name
/// alone. Core Data keys its cache by name, so changing the predicate while
/// a cache name is set could serve the old results; here a changed request
/// has a different fingerprint and can only miss.
public struct ResultsFingerprint: Sendable, Hashable, CustomStringConvertible {
    /// The SHA-256 digest, in lowercase hex.
    public let hex: String

    /// - Parameters:
    ///   - store: the store's identity (its `Z_METADATA` UUID).
    ///   - predicate: the predicate's canonical text after substitution, or
    ///     `nil` for every object.
    ///   - sortDescriptors: each descriptor's canonical text, in order.
    public init(store: String, entity: String, predicate: String?, sortDescriptors: [String], sectionKeyPath: String?) {
        var hasher = SHA256()
        // Length-prefixed fields, so no two different requests concatenate
        // to the same bytes.
        func field(_ text: String?) {
            guard let text else {
                hasher.update(data: [0xFF])
                return
            }
            let bytes = Array(text.utf8)
            withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { hasher.update(bufferPointer: $0) }
            hasher.update(data: bytes)
        }
        field("sandbox.results.v1")
        field(store)
        field(entity)
        field(predicate)
        field(String(sortDescriptors.count))
        sortDescriptors.forEach(field)
        field(sectionKeyPath)
        hex = hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    public var description: String { hex }
}
