import Foundation
import KeyedArchive
import PredicateFormat

/// An object as a store holds it: a value, read from one row.
///
/// Attribute values are ``PredicateFormat/AttributeValue``s, so predicates
/// evaluate against them directly. To-one relationships come with the row
/// (they are columns of it); to-many ones are read on demand through
/// ``PersistentStore/destinations(of:relationship:)`` or a context.
public struct ManagedObject: Sendable, Hashable {
    public var objectID: ObjectID
    /// The row's `Z_OPT`: how many times the object was saved. A save
    /// succeeds only if it is still the version the object was read at.
    public var version: Int64
    /// Every stored attribute's value, `.null` when unset.
    public var values: [String: AttributeValue]
    /// Each to-one relationship's destination, absent when it has none.
    public var toOne: [String: ObjectID]

    public init(objectID: ObjectID, version: Int64 = 0, values: [String: AttributeValue] = [:],
                toOne: [String: ObjectID] = [:]) {
        self.objectID = objectID
        self.version = version
        self.values = values
        self.toOne = toOne
    }

    /// The attribute's value, `.null` when unset or unknown.
    public subscript(key: String) -> AttributeValue {
        values[key] ?? .null
    }
}

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
