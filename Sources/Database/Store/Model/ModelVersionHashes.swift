import Crypto
import Foundation

/// Core Data's version hashes: one SHA-256 per entity, over what makes a
/// store compatible with a model (names, optionality, attribute types,
/// relationship shapes, inheritance), and two summaries of them that newer
/// stores record as well.
///
/// A store's metadata (`Z_METADATA`) records the hashes of the model that
/// wrote it; a model opens the store without migration exactly when its
/// hashes are equal. The algorithm reproduces what Core Data records in
/// every fixture store (framework versions 637 to 1344).
public struct ModelVersionHashes: Sendable, Hashable {
    /// Each entity's hash, by entity name.
    public var entities: [String: Data]

    public init(entities: [String: Data]) {
        self.entities = entities
    }

    /// The entity names in the order the summaries use: by their UTF-8 bytes.
    public var sortedNames: [String] {
        entities.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// `NSStoreModelVersionHashesDigest`: SHA-512 over each entity's name
    /// and hash, entities sorted by name (written base64 in the metadata).
    public var digest: Data {
        var hasher = SHA512()
        for name in sortedNames {
            hasher.update(data: Data(name.utf8))
            hasher.update(data: entities[name] ?? Data())
        }
        return Data(hasher.finalize())
    }

    /// `NSStoreModelVersionChecksumKey`: SHA-256 over the entity hashes
    /// alone, entities sorted by name (written base64 in the metadata).
    public var checksum: Data {
        var hasher = SHA256()
        for name in sortedNames { hasher.update(data: entities[name] ?? Data()) }
        return Data(hasher.finalize())
    }
}

extension ObjectModel {
    /// The version hash of every entity, as Core Data computes it.
    public var versionHashes: ModelVersionHashes {
        var calculator = VersionHashCalculator(model: self)
        var result: [String: Data] = [:]
        for entity in entities { result[entity.name] = calculator.hash(of: entity.name) }
        return ModelVersionHashes(entities: result)
    }

    /// The version hash of one entity (`NSEntityDescription.versionHash`), or
    /// `nil` when the model has no such entity.
    public func versionHash(ofEntity name: String) -> Data? {
        var calculator = VersionHashCalculator(model: self)
        return calculator.hash(of: name)
    }
}

/// The hashes, computed as Core Data's `NSEntityDescription`,
/// `NSPropertyDescription`, `NSAttributeDescription` and
/// `NSRelationshipDescription` do (their `_versionHash:inStyle:`):
///
/// - property: SHA-256(name, 2 bytes of flags [optional 1, transient 2,
///   read-only 4] little-endian, version-hash modifier);
/// - attribute: SHA-256(property hash, attribute type as 4 bytes
///   little-endian, a 1 byte if stored externally, a 1 byte if preserved
///   in history on deletion);
/// - derived attribute: SHA-256(the derivation expression's format, the
///   filtering predicate's format) — Core Data computes the attribute hash
///   and then does not feed it in;
/// - relationship: SHA-256(property hash, destination name, inverse name
///   unless the relationship is its own inverse, max count and min count as
///   4 bytes each little-endian, 2 bytes `01 00` if ordered);
/// - entity: SHA-256(name, 1 byte abstract, the super-entity's hash, the
///   hash of every non-transient attribute and relationship — inherited
///   ones included — sorted by name, the version-hash modifier, then each
///   uniqueness constraint joined with "." in sorted order).
///
/// Names are hashed as their UTF-8 bytes with no terminator.
struct VersionHashCalculator {
    let model: ObjectModel
    private var entityHashes: [String: Data] = [:]
    private var inProgress: Set<String> = []

    init(model: ObjectModel) { self.model = model }

    mutating func hash(of name: String) -> Data? {
        if let done = entityHashes[name] { return done }
        guard let entity = model.entity(named: name), inProgress.insert(name).inserted else { return nil }
        defer { inProgress.remove(name) }
        var hasher = SHA256()
        hasher.update(data: Data(entity.name.utf8))
        hasher.update(data: [entity.isAbstract ? 1 : 0] as [UInt8])
        if let parent = entity.superentityName, let parentHash = hash(of: parent) {
            hasher.update(data: parentHash)
        }
        for property in model.storedPropertiesForHashing(of: entity) {
            hasher.update(data: property)
        }
        if let modifier = entity.versionHashModifier { hasher.update(data: Data(modifier.utf8)) }
        let constraints = entity.uniquenessConstraints.map { $0.joined(separator: ".") }
            .filter { !$0.isEmpty }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        for constraint in constraints { hasher.update(data: Data(constraint.utf8)) }
        let result = Data(hasher.finalize())
        entityHashes[name] = result
        return result
    }
}

extension ObjectModel {
    /// The hashes of an entity's non-transient attributes and relationships,
    /// its inherited ones included, in name order.
    fileprivate func storedPropertiesForHashing(of entity: EntityDescription) -> [Data] {
        var properties: [(name: String, hash: Data)] = []
        for (_, attribute) in resolvedAttributes(of: entity) where !attribute.isTransient {
            properties.append((attribute.name, Self.hash(of: attribute)))
        }
        for (owner, relationship) in resolvedRelationships(of: entity) where !relationship.isTransient {
            properties.append((relationship.name, Self.hash(of: relationship, declaredBy: owner)))
        }
        return properties.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }.map(\.hash)
    }

    static func propertyHash(name: String, isOptional: Bool, isTransient: Bool, isReadOnly: Bool, modifier: String?) -> Data {
        var hasher = SHA256()
        hasher.update(data: Data(name.utf8))
        let flags: UInt8 = (isOptional ? 1 : 0) | (isTransient ? 2 : 0) | (isReadOnly ? 4 : 0)
        hasher.update(data: [flags, 0] as [UInt8])
        if let modifier { hasher.update(data: Data(modifier.utf8)) }
        return Data(hasher.finalize())
    }

    static func hash(of attribute: AttributeDescription) -> Data {
        if let expression = attribute.derivationExpression {
            var hasher = SHA256()
            hasher.update(data: Data(DerivationFormat.predicateFormat(of: expression).utf8))
            return Data(hasher.finalize())
        }
        var hasher = SHA256()
        hasher.update(data: propertyHash(name: attribute.name, isOptional: attribute.isOptional, isTransient: attribute.isTransient,
                                         isReadOnly: attribute.isReadOnly, modifier: attribute.versionHashModifier))
        hasher.update(data: littleEndianBytes(UInt32(truncatingIfNeeded: attribute.type.rawValue)))
        if attribute.allowsExternalBinaryDataStorage { hasher.update(data: [1] as [UInt8]) }
        if attribute.preservesValueInHistoryOnDeletion { hasher.update(data: [1] as [UInt8]) }
        return Data(hasher.finalize())
    }

    static func hash(of relationship: RelationshipDescription, declaredBy owner: String) -> Data {
        var hasher = SHA256()
        hasher.update(data: propertyHash(name: relationship.name, isOptional: relationship.isOptional,
                                         isTransient: relationship.isTransient, isReadOnly: false,
                                         modifier: relationship.versionHashModifier))
        hasher.update(data: Data(relationship.destinationEntityName.utf8))
        let isOwnInverse = relationship.inverseName == relationship.name && relationship.destinationEntityName == owner
        if let inverse = relationship.inverseName, !isOwnInverse { hasher.update(data: Data(inverse.utf8)) }
        hasher.update(data: littleEndianBytes(UInt32(truncatingIfNeeded: relationship.maxCount)))
        hasher.update(data: littleEndianBytes(UInt32(truncatingIfNeeded: relationship.minCount)))
        if relationship.isOrdered { hasher.update(data: [1, 0] as [UInt8]) }
        return Data(hasher.finalize())
    }

    private static func littleEndianBytes(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}

/// The text `NSExpression.predicateFormat` gives a derivation: Core Data
/// turns a key path ending in `@count`, `@sum` or `@total` into a function
/// (`count:(pages)`), which is what it hashes.
enum DerivationFormat {
    static func predicateFormat(of expression: String) -> String {
        for (suffix, function) in [(".@count", "count:"), (".@sum", "sum:"), (".@total", "sum:")] where expression.hasSuffix(suffix) {
            return "\(function)(\(expression.dropLast(suffix.count)))"
        }
        return expression
    }
}
