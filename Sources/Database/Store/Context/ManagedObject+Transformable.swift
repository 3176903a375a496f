import Foundation
import KeyedArchive
import PredicateFormat

extension ManagedObject {
    /// A transformable (or binary) attribute's value decoded as the keyed
    /// archive `NSSecureUnarchiveFromData` and most value transformers
    /// write, read generically (classes by name, fields by key); nil when
    /// the attribute is unset or its bytes are not a keyed archive (an
    /// app's own transformer may write any bytes, which stay in
    /// ``values`` as `.data`).
    ///
    /// - Throws: ``StoreErrorCode/invalidValue`` when the bytes claim to
    ///   be a keyed archive but cannot be read.
    public func archivedValue(for key: String) throws(StoreError) -> ArchivedValue? {
        guard case .data(let bytes) = values[key] ?? .null, bytes.starts(with: Data("bplist00".utf8)) else { return nil }
        let unarchiver: KeyedUnarchiver
        do {
            unarchiver = try KeyedUnarchiver(data: bytes)
        } catch {
            return nil   // a binary property list, but no archive
        }
        do {
            return try unarchiver.decodeRootGraph()
        } catch {
            throw StoreError(.invalidValue, "attribute \(key) holds a damaged keyed archive",
                             entity: objectID.entityName, objects: [objectID]).caused(by: error)
        }
    }
}
